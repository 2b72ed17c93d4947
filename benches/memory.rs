//! Resident memory over long runs of the pure core: many whole random games
//! (`sim::random_game`), then millions of copies and determinizations. Memory must stay
//! flat; the numbers go to BENCHMARKS.md ("Memory over long runs").
//!
//! `cargo bench --bench memory` (Linux: reads /proc/self/status). Sizes from the
//! environment: GENIAL_MEMORY_GAMES (default 1000000), GENIAL_MEMORY_COPIES (default 5000000).

use genial::rng::{derive_seed, Rng};
use genial::sim::random_game;
use genial::{Config, Game, Variant};
use std::hint::black_box;
use std::time::Instant;

/// `(VmRSS, VmHWM)` in KiB.
fn rss() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

struct Phase {
    name: &'static str,
    start: u64,
    samples: Vec<u64>,
    clock: Instant,
}

impl Phase {
    fn new(name: &'static str) -> Phase {
        Phase { name, start: rss().0, samples: Vec::new(), clock: Instant::now() }
    }
    fn sample(&mut self) {
        self.samples.push(rss().0);
    }
    fn report(self, count: u64) {
        let end = rss().0;
        let peak = self.samples.iter().copied().chain([self.start, end]).max().unwrap();
        println!(
            "{:<34} {:>12} {:>10} {:>10} {:>10} {:>8.1}s   samples(KiB): {:?}",
            self.name,
            count,
            self.start,
            peak,
            end,
            self.clock.elapsed().as_secs_f64(),
            self.samples
        );
    }
}

fn main() {
    let games = env("GENIAL_MEMORY_GAMES", 1_000_000);
    let copies = env("GENIAL_MEMORY_COPIES", 5_000_000);
    let configs: Vec<Config> = Variant::ALL
        .iter()
        .flat_map(|&v| v.player_counts().iter().map(move |&p| (v, p)))
        .map(|(v, p)| Config::new(v, p, genial::SwapTiming::AfterPlacement, false).unwrap())
        .collect();
    println!("{:<34} {:>12} {:>10} {:>10} {:>10} {:>9}", "phase", "count", "start KiB", "peak KiB", "end KiB", "time");

    // Whole random games of every variant, one reused move buffer as the simulator intends.
    let mut phase = Phase::new("random_game (all variants)");
    let mut buf = Vec::new();
    let mut checksum = 0u64;
    for i in 0..games {
        let g = random_game(configs[i as usize % configs.len()], derive_seed(1, i), &mut buf);
        checksum = checksum.wrapping_add(g.stats().placements as u64);
        if (i + 1) % (games / 10).max(1) == 0 {
            phase.sample();
        }
    }
    black_box(checksum);
    phase.report(games);

    // A fresh move buffer per game: every allocation is freed again.
    let mut phase = Phase::new("random_game (new buffer each)");
    for i in 0..games / 10 {
        let mut own = Vec::new();
        black_box(random_game(configs[i as usize % configs.len()], derive_seed(2, i), &mut own));
        if (i + 1) % (games / 100).max(1) == 0 {
            phase.sample();
        }
    }
    phase.report(games / 10);

    // Copies of a mid-game position (Copy, no heap) and determinizations (which allocate).
    let mut mid = Game::new(configs[2], 5);
    let mut moves = Vec::new();
    let mut rng = Rng::new(5);
    for _ in 0..30 {
        mid.legal_moves(&mut moves);
        mid.play_unchecked(&moves[rng.below(moves.len() as u32) as usize]);
    }
    let mut phase = Phase::new("Game copy");
    for i in 0..copies {
        let mut c = black_box(mid);
        c.reseed(i);
        black_box(&c);
        if (i + 1) % (copies / 10).max(1) == 0 {
            phase.sample();
        }
    }
    phase.report(copies);

    let mut phase = Phase::new("Game::determinize");
    for i in 0..copies {
        black_box(mid.determinize((i % 4) as usize, i));
        if (i + 1) % (copies / 10).max(1) == 0 {
            phase.sample();
        }
    }
    phase.report(copies);
    let (now, hwm) = rss();
    println!("final VmRSS {now} KiB, VmHWM {hwm} KiB");
}
