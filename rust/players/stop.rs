//! Asking long work to stop early (Ctrl-C): a flag shared by the threads doing the work,
//! read between games and between search iterations, and optionally a `poll` that the
//! flag's reader runs now and then to learn whether to stop (the bindings run Python's
//! signal handlers there, on the calling thread: no watcher thread is needed).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often `Stop::is_set` runs its `poll`.
pub const POLL: Duration = Duration::from_millis(50);
const POLL_NS: u64 = POLL.as_nanos() as u64;

type Poll = Box<dyn Fn() -> bool + Send + Sync>;

/// A request to stop, shared between threads (in an `Arc`).
pub struct Stop {
    flag: AtomicBool,
    poll: Option<Poll>,
    start: Instant,
    /// When the next poll is due, in nanoseconds since `start`.
    next: AtomicU64,
}

impl Default for Stop {
    fn default() -> Self {
        Stop::new()
    }
}

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stop").field("set", &self.flag.load(Ordering::Relaxed)).finish()
    }
}

impl Stop {
    /// A flag that only `set` sets.
    pub fn new() -> Stop {
        Stop { flag: AtomicBool::new(false), poll: None, start: Instant::now(), next: AtomicU64::new(POLL_NS) }
    }

    /// A flag that is also set once `poll` returns true; `is_set` runs `poll` at most
    /// every [`POLL`], the first time [`POLL`] after it was made or cleared (work shorter
    /// than that never polls: what the poll would learn, Python learns when it returns).
    pub fn polling(poll: impl Fn() -> bool + Send + Sync + 'static) -> Stop {
        Stop { poll: Some(Box::new(poll)), ..Stop::new() }
    }

    pub fn set(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Clears the flag, for the next piece of work.
    pub fn clear(&self) {
        self.flag.store(false, Ordering::Relaxed);
        self.next.store(self.now() + POLL_NS, Ordering::Relaxed);
    }

    /// Whether `set` was called, without polling (one atomic load: for reads between
    /// moves, where a clock read would cost more than a fast bot's move).
    #[inline]
    pub fn is_flagged(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    fn now(&self) -> u64 {
        self.start.elapsed().as_nanos() as u64
    }

    /// Whether the work should stop (cheap: one atomic load, plus a clock read when polling).
    #[inline]
    pub fn is_set(&self) -> bool {
        if self.flag.load(Ordering::Relaxed) {
            return true;
        }
        match &self.poll {
            None => false,
            Some(poll) => self.poll_due(poll),
        }
    }

    #[cold]
    fn poll_due(&self, poll: &Poll) -> bool {
        let now = self.now();
        if now < self.next.load(Ordering::Relaxed) {
            return false;
        }
        self.next.store(now + POLL_NS, Ordering::Relaxed);
        if poll() {
            self.set();
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Arc;

    #[test]
    fn a_flag_is_set_and_cleared() {
        let s = Stop::new();
        assert!(!s.is_set());
        s.set();
        assert!(s.is_set());
        s.clear();
        assert!(!s.is_set());
    }

    #[test]
    fn a_poll_runs_at_most_every_poll_interval_and_sets_the_flag() {
        let calls = Arc::new(AtomicUsize::new(0));
        let c = Arc::clone(&calls);
        let s = Stop::polling(move || c.fetch_add(1, Ordering::Relaxed) >= 2);
        let t = Instant::now();
        for _ in 0..1000 {
            assert!(!s.is_set());
        }
        if t.elapsed() < POLL {
            assert_eq!(calls.load(Ordering::Relaxed), 0, "no poll before the first interval has passed");
        }
        while !s.is_set() {
            assert!(t.elapsed() < Duration::from_secs(10));
        }
        assert_eq!(calls.load(Ordering::Relaxed), 3);
        assert!(s.is_set(), "stays set");
        assert!(s.is_flagged());
        s.clear();
        assert!(!s.is_flagged());
    }
}
