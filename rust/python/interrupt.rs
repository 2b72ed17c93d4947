//! Long work started from Python that Ctrl-C (or any signal handler that raises) stops,
//! without a thread per call.
//!
//! Python runs signal handlers only on its main thread, between bytecodes or when native
//! code asks (`PyErr_CheckSignals`). Work that releases the GIL for minutes would leave
//! Ctrl-C pending all that time, and the first Python call after it would meet the
//! `KeyboardInterrupt` in a place not made for it. So the calling thread asks, briefly
//! taking the GIL back, every `POLL`:
//!
//! - [`here`]: the work (a search) runs on the calling thread itself; its [`Stop`], read
//!   between search iterations, polls the signal handlers (see [`polling_stop`]).
//! - [`on_caller`]: the work (games on one thread) runs on the calling thread itself; its
//!   [`Stop`], read between games and search iterations, polls the signal handlers and
//!   reports progress.
//! - [`on_pool`]: the work (many games) runs on a rayon pool the call owns anyway, while the
//!   calling thread waits, runs the handlers and reports progress.
//!
//! When a handler raises, the work is told to stop (it reads the flag between games and
//! search iterations) and returns soon after; the handler's exception (`KeyboardInterrupt`,
//! or whatever it raised) is then raised as itself.

use crate::stop::{Stop, POLL};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often `on_caller` and `on_pool` report progress.
pub const PROGRESS: Duration = Duration::from_millis(200);

/// A signal handler's exception, kept by a polling [`Stop`] until the work has returned.
pub type Raised = Arc<Mutex<Option<PyErr>>>;

/// A [`Stop`] that, when read (at most every `POLL`), takes the GIL and runs Python's
/// signal handlers; the first exception one raises sets the stop and is kept in the
/// returned slot. Read on a thread other than the main thread, it never stops (Python runs
/// handlers on the main thread only).
pub fn polling_stop() -> (Arc<Stop>, Raised) {
    let raised: Raised = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&raised);
    let stop = Stop::polling(move || match Python::attach(|py| py.check_signals()) {
        Ok(()) => false,
        Err(e) => {
            *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
            true
        }
    });
    (Arc::new(stop), raised)
}

/// Runs `work` on the calling thread with the GIL released; `stop` (from [`polling_stop`],
/// cleared first) must be read by the work often. When a signal handler raised meanwhile,
/// what the work returned is dropped and the handler's exception is raised. A panic in the
/// work becomes a `RuntimeError` naming it, never a `PanicException`.
pub fn here<T: Send>(py: Python<'_>, stop: &Stop, raised: &Raised, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    stop.clear();
    raised.lock().unwrap_or_else(|p| p.into_inner()).take();
    let out = py.detach(|| catch_unwind(AssertUnwindSafe(work)));
    if let Some(e) = raised.lock().unwrap_or_else(|p| p.into_inner()).take() {
        return Err(e);
    }
    out.map_err(internal)
}

/// Progress reported while the work runs: `callback(done, total)` at most every `PROGRESS`.
pub struct Progress {
    pub callback: Py<PyAny>,
    pub done: Arc<AtomicU64>,
    pub total: u64,
}

impl Progress {
    fn report(&self, py: Python<'_>) -> PyResult<()> {
        self.callback.call1(py, (self.done.load(Ordering::Relaxed), self.total)).map(drop)
    }
}

/// Runs `work` on the calling thread with the GIL released; no thread is started. `work`
/// gets a [`Stop`] to read between games and search iterations: read at most every `POLL`
/// (work shorter than that never takes the GIL back), it runs Python's signal handlers and,
/// every `PROGRESS`, the progress callback. When one raises, the stop is set and the work
/// runs to its (early) end; both are returned, as by [`on_pool`].
pub fn on_caller<T: Send>(
    py: Python<'_>,
    progress: Option<Progress>,
    work: impl FnOnce(&Arc<Stop>) -> T + Send,
) -> PyResult<(T, Option<PyErr>)> {
    let raised: Raised = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&raised);
    let reported = Mutex::new(Instant::now());
    let stop = Arc::new(Stop::polling(move || {
        let checked = Python::attach(|py| {
            py.check_signals()?;
            if let Some(p) = &progress {
                let mut last = reported.lock().unwrap_or_else(|p| p.into_inner());
                if last.elapsed() >= PROGRESS {
                    *last = Instant::now();
                    p.report(py)?;
                }
            }
            Ok::<(), PyErr>(())
        });
        match checked {
            Ok(()) => false,
            Err(e) => {
                *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                true
            }
        }
    }));
    let out = py.detach(|| catch_unwind(AssertUnwindSafe(|| work(&stop))));
    let raised = raised.lock().unwrap_or_else(|p| p.into_inner()).take();
    out.map(|out| (out, raised)).map_err(internal)
}

/// Runs `work` on `pool` with the GIL released while the calling thread waits: every
/// `POLL` it takes the GIL, runs Python's signal handlers and, every `PROGRESS`, the
/// progress callback. When a handler or the callback raises, `stop` is set, the work still
/// runs to its (early) end, and both are returned: what the work kept, and the exception
/// for the caller to raise after saving it. No thread is started beyond the pool's.
pub fn on_pool<T: Send>(
    py: Python<'_>,
    pool: &rayon::ThreadPool,
    stop: &Stop,
    progress: Option<Progress>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<(T, Option<PyErr>)> {
    stop.clear();
    let (out, raised) = py.detach(|| {
        let (done, finished) = sync_channel(1);
        pool.in_place_scope(|scope| {
            scope.spawn(move |_| {
                let _ = done.send(catch_unwind(AssertUnwindSafe(work)));
            });
            let mut raised: Option<PyErr> = None;
            let mut reported = Instant::now();
            loop {
                match finished.recv_timeout(POLL) {
                    Ok(out) => return (Some(out), raised),
                    Err(RecvTimeoutError::Disconnected) => return (None, raised),
                    Err(RecvTimeoutError::Timeout) if raised.is_none() => {
                        let due = progress.as_ref().filter(|_| reported.elapsed() >= PROGRESS);
                        let checked = Python::attach(|py| {
                            py.check_signals()?;
                            if let Some(p) = due {
                                p.report(py)?;
                            }
                            Ok::<(), PyErr>(())
                        });
                        if due.is_some() {
                            reported = Instant::now();
                        }
                        if let Err(e) = checked {
                            stop.set();
                            raised = Some(e);
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
        })
    });
    match out {
        Some(Ok(out)) => Ok((out, raised)),
        Some(Err(panic)) => Err(internal(panic)),
        None => Err(PyRuntimeError::new_err("internal error in genial: the work ended without an answer")),
    }
}

fn internal(panic: Box<dyn Any + Send>) -> PyErr {
    PyRuntimeError::new_err(format!("internal error in genial: {}", panic_text(panic.as_ref())))
}

fn panic_text(panic: &(dyn Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic")
}
