//! Criterion benchmarks of the pure core: whole random games and single decisions.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use genial::bots::{Bot, GreedyBot};
use genial::sim::random_game;
use genial::{Config, Game, Move};
use std::hint::black_box;

#[path = "support/real_games.rs"]
mod real_games;

/// Full games where every decision enumerates all legal moves and picks one uniformly.
fn random_games(c: &mut Criterion) {
    for players in [2usize, 3, 4] {
        let config = Config::standard(players).unwrap();
        let mut buf = Vec::with_capacity(8192);
        let mut seed = 0u64;
        c.bench_function(&format!("random_game_{players}p"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_game(config, seed, &mut buf))
            })
        });
    }
}

/// The variants and edition options through the same loop (they share the generator).
fn variant_games(c: &mut Criterion) {
    use genial::{SwapTiming, Variant};
    let cases = [
        ("solo", Variant::Solo, 1, SwapTiming::AfterPlacement, false),
        ("team", Variant::Team, 4, SwapTiming::AfterPlacement, false),
        ("duel", Variant::Duel, 2, SwapTiming::AfterPlacement, false),
        ("standard_2p_instead_swap", Variant::Standard, 2, SwapTiming::InsteadOfPlacement, false),
        ("standard_2p_contact", Variant::Standard, 2, SwapTiming::AfterPlacement, true),
    ];
    for (name, variant, players, timing, contact) in cases {
        let config = Config::new(variant, players, timing, contact).unwrap();
        let mut buf = Vec::with_capacity(8192);
        let mut seed = 0u64;
        c.bench_function(&format!("random_game_{name}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(random_game(config, seed, &mut buf))
            })
        });
    }
}

/// A 4-player position after `plies` random decisions.
fn midgame(players: usize, plies: usize) -> Game {
    let mut g = Game::new(Config::standard(players).unwrap(), 11);
    let mut moves = Vec::new();
    let mut rng = genial::rng::Rng::new(5);
    for _ in 0..plies {
        g.legal_moves(&mut moves);
        let m = moves[rng.below(moves.len() as u32) as usize];
        g.play_unchecked(&m);
    }
    g
}

fn decisions(c: &mut Criterion) {
    let g = midgame(4, 30);
    let mut buf: Vec<Move> = Vec::with_capacity(8192);
    c.bench_function("legal_moves_4p_midgame", |b| {
        b.iter(|| {
            black_box(&g).legal_moves(&mut buf);
            black_box(buf.len())
        })
    });
    g.legal_moves(&mut buf);
    let m = buf[buf.len() / 2];
    c.bench_function("play_unchecked_4p_midgame", |b| {
        b.iter_batched(|| g, |mut g| black_box(g.play_unchecked(&m)), BatchSize::SmallInput)
    });
    let mut greedy = GreedyBot::new(1);
    c.bench_function("greedy_choose_4p_midgame", |b| b.iter(|| black_box(greedy.choose(&g, &buf))));
}

/// Every position of six random games (the instruction guard's `legal_moves` workload, per
/// player count), listed in one iteration: criterion's throughput is listed moves, so its
/// time per element is the generator's time per listed move in real games.
fn real_game_positions(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_moves_real_games");
    for players in [2usize, 3, 4] {
        let games = real_games::all_positions(players);
        let mut moves = Vec::new();
        let listed: usize = games
            .iter()
            .map(|g| {
                g.legal_moves(&mut moves);
                moves.len()
            })
            .sum();
        group.throughput(Throughput::Elements(listed as u64));
        group.bench_function(format!("{players}p"), |b| {
            b.iter(|| {
                for g in &games {
                    black_box(g).legal_moves(&mut moves);
                    black_box(moves.len());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, random_games, variant_games, decisions, real_game_positions);
criterion_main!(benches);
