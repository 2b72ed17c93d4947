//! Criterion benchmarks of the bots' decisions: the reference `scarcity`, the levels, and
//! the search per iteration (benches/results/HISTORY.md,
//! "Levels, the scarcity reference and analysis").

use criterion::{criterion_group, criterion_main, Criterion};
use genial::bots::catalogue::level;
use genial::bots::levels::LevelKind;
use genial::bots::{Bot, MctsBot, MctsConfig, OnePlyBot, ScarcityBot, SearchBot};
use genial::{Config, Game};
use std::hint::black_box;

/// A position after `plies` decisions of scarcity self-play.
fn position(players: usize, plies: usize) -> Game {
    let mut g = Game::new(Config::standard(players).unwrap(), 21);
    let mut bot = ScarcityBot::new(3);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let m = bot.choose_move(&g, &mut moves);
        g.play_unchecked(&m);
    }
    g
}

fn decisions(c: &mut Criterion) {
    for (players, plies) in [(2usize, 10usize), (4, 16)] {
        let g = position(players, plies);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut s = ScarcityBot::new(1);
        c.bench_function(&format!("scarcity_decision_{players}p"), |b| b.iter(|| black_box(s.choose(&g, &moves))));
        let Some(LevelKind::OnePly(medium)) = level("medium") else { unreachable!() };
        let mut m = OnePlyBot::new(medium, 1);
        c.bench_function(&format!("medium_decision_{players}p"), |b| b.iter(|| black_box(m.choose(&g, &moves))));
        for name in ["hard", "expert", "master"] {
            let Some(LevelKind::Search(cfg)) = level(name) else { unreachable!() };
            let mut bot = SearchBot::new(cfg, 1);
            c.bench_function(&format!("{name}_decision_{players}p"), |b| b.iter(|| black_box(bot.choose(&g, &moves))));
        }
        let mut mcts = MctsBot::new(MctsConfig::default(), 1);
        c.bench_function(&format!("mcts_decision_{players}p"), |b| b.iter(|| black_box(mcts.choose(&g, &moves))));
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = decisions
}
criterion_main!(benches);
