//! Plays N random 2-player games (for profiling: `perf stat`, callgrind).
use genial::sim::random_game;
use genial::Config;

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let players: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let config = Config::standard(players).unwrap();
    let mut buf = Vec::with_capacity(8192);
    let mut placements = 0u64;
    let t = std::time::Instant::now();
    for seed in 0..n {
        placements += random_game(config, seed, &mut buf).stats().placements as u64;
    }
    let dt = t.elapsed();
    println!("{n} games, {placements} placements, {:.1} us/game", dt.as_secs_f64() * 1e6 / n as f64);
}
