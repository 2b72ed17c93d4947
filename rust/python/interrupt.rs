//! Long work started from Python that Ctrl-C (or any signal handler that raises) stops.
//!
//! Python runs signal handlers only on its main thread, between bytecodes or when native
//! code asks (`PyErr_CheckSignals`). Work that releases the GIL for minutes would leave
//! Ctrl-C pending all that time, and the first Python call after it (numpy's lazy import
//! included) would meet the `KeyboardInterrupt` in a place not made for it. So long work
//! runs on a worker thread while the calling thread wakes every `POLL`, takes the GIL and
//! runs the handlers; when one raises, the worker is told to stop (a shared `AtomicBool`
//! it reads between games and search iterations) and joined, and the handler's exception
//! (`KeyboardInterrupt`, or whatever it raised) propagates as itself.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, RecvTimeoutError};
use std::time::Duration;

/// How often the waiting thread runs Python's signal handlers.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread with the GIL released and returns its result, unless a
/// signal handler raises meanwhile: then `stop` is set (the work must read it often and
/// return soon after; what it returns is dropped) and the handler's exception is raised.
/// `stop` is cleared first. A panic in the work becomes a `RuntimeError` naming it, never
/// a `PanicException`.
pub fn run<T: Send>(py: Python<'_>, stop: &AtomicBool, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    stop.store(false, Ordering::Relaxed);
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = sync_channel::<()>(1);
            let worker = std::thread::Builder::new()
                .name("genial-worker".into())
                .spawn_scoped(scope, move || {
                    let out = work();
                    let _ = done.send(());
                    out
                })
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start a worker thread: {e}")))?;
            let mut raised = None;
            // `Disconnected`: the worker ended without sending, that is, it panicked.
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(POLL) {
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    stop.store(true, Ordering::Relaxed);
                    raised = Some(e);
                    break;
                }
            }
            let joined = worker.join();
            if let Some(e) = raised {
                return Err(e);
            }
            joined.map_err(|panic| {
                PyRuntimeError::new_err(format!("internal error in genial: {}", panic_text(panic.as_ref())))
            })
        })
    })
}

fn panic_text(panic: &(dyn Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic")
}
