//! Criterion benchmarks of the learning core: observation, legal mask, and one batched
//! `VecEnv` step (observations and masks included) on 1 and 2 threads.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use genial::actions::{legal_action_mask, ACTION_COUNT};
use genial::observation::{observe, OBS_SIZE};
use genial::vecenv::{Outputs, VecEnv};
use genial::{Config, Game};
use std::hint::black_box;

fn midgame() -> Game {
    let mut g = Game::new(Config::standard(2).unwrap(), 11);
    let mut moves = Vec::new();
    let mut rng = genial::rng::Rng::new(5);
    for _ in 0..20 {
        g.legal_moves(&mut moves);
        g.play_unchecked(&moves[rng.below(moves.len() as u32) as usize]);
    }
    g
}

fn single(c: &mut Criterion) {
    let g = midgame();
    let mut obs = vec![0f32; OBS_SIZE];
    c.bench_function("observe_2p_midgame", |b| b.iter(|| observe(black_box(&g), 0, &mut obs)));
    let mut mask = vec![false; ACTION_COUNT];
    c.bench_function("legal_action_mask_2p_midgame", |b| b.iter(|| legal_action_mask(black_box(&g), &mut mask)));
}

fn batched(c: &mut Criterion) {
    let n = 256;
    let config = Config::standard(2).unwrap();
    let mut group = c.benchmark_group("vecenv_step_256x2p");
    group.throughput(Throughput::Elements(n as u64));
    for threads in [1usize, 2] {
        let mut env = VecEnv::new(config, n, 1, threads).unwrap();
        let mut obs = vec![0f32; n * OBS_SIZE];
        let mut mask = vec![false; n * ACTION_COUNT];
        let mut players = vec![0i64; n];
        let mut rewards = vec![0f32; n * 2];
        let mut dones = vec![false; n];
        let mut actions = vec![0i64; n];
        group.bench_function(format!("{threads}_threads"), |b| {
            b.iter(|| {
                env.sample_actions(&mut actions);
                let out = Outputs {
                    obs: &mut obs,
                    mask: &mut mask,
                    players: &mut players,
                    rewards: &mut rewards,
                    dones: &mut dones,
                };
                env.step(&actions, out).unwrap();
            })
        });
    }
    group.finish();
}

criterion_group!(benches, single, batched);
criterion_main!(benches);
