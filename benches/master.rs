//! The `master` level against the others, and its ablations (BENCHMARKS.md, "The master
//! level and the ceiling"). Not a criterion bench: matches with 95 % Wilson intervals, and time per decision.
//!
//!     cargo bench --bench master -- match master expert 2 400 [seed] [threads] [first game]
//!     cargo bench --bench master -- time expert,master 2 4 [seed]
//!
//! `time` prints a table row per bot: decisions, wall median and p90, CPU median, p90 and
//! max (ms; the CPU time of the thread that searches).
//!
//! Bots: the level names, `scarcity`, and the ablations of `master`: `master-fitted` (the
//! fitted 22-feature evaluation instead of the learned one), `master-noexact` (no
//! exhaustive endgame), `master-flat` (no time management: exactly the budget), and
//! `master-infer` (with rack inference).
//! Two players: paired deals, seats alternated, a tie counts half. Four players: one bot
//! against three of the other, each deal played with the one in every seat, first places
//! (a shared first split). Seeds: 2026 and up for reports; tuning used 999.

use genial::bots::catalogue::level;
use genial::bots::levels::LevelKind;
use genial::bots::{Bot, Evaluation};
use genial::sim::{BotSpec, Run};
use genial::{Config, Game};
use std::time::Instant;

fn spec(name: &str) -> BotSpec {
    let search = |n: &str| match level(n) {
        Some(LevelKind::Search(c)) => c,
        _ => unreachable!(),
    };
    match name {
        "scarcity" => BotSpec::Scarcity,
        "greedy" => BotSpec::Greedy,
        "master-fitted" => BotSpec::Level(
            "master-fitted",
            LevelKind::Search(genial::bots::SearchConfig { evaluation: Evaluation::Fitted, ..search("master") }),
        ),
        "master-noexact" => BotSpec::Level(
            "master-noexact",
            LevelKind::Search(genial::bots::SearchConfig { exact: 0, ..search("master") }),
        ),
        "hard-learned" => BotSpec::Level(
            "hard-learned",
            LevelKind::Search(genial::bots::SearchConfig { evaluation: Evaluation::Learned, ..search("hard") }),
        ),
        "expert-learned" => BotSpec::Level(
            "expert-learned",
            LevelKind::Search(genial::bots::SearchConfig { evaluation: Evaluation::Learned, ..search("expert") }),
        ),
        "master-infer" => BotSpec::Level(
            "master-infer",
            LevelKind::Search(genial::bots::SearchConfig { infer: true, ..search("master") }),
        ),
        "master-flat" => BotSpec::Level(
            "master-flat",
            LevelKind::Search(genial::bots::SearchConfig { extend: 0.0, ..search("master") }),
        ),
        other => genial::bots::catalogue::parse(other).unwrap_or_else(|e| panic!("{e}")),
    }
}

/// 95 % Wilson interval of `wins` out of `n`.
fn wilson(wins: f64, n: f64) -> (f64, f64) {
    let z = 1.959964f64;
    let p = wins / n;
    let d = 1.0 + z * z / n;
    let c = (p + z * z / (2.0 * n)) / d;
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    (c - h, c + h)
}

fn play_match(a: &str, b: &str, players: usize, games: usize, seed: u64, threads: usize, first: u64) {
    let lineups: Vec<[u8; 4]> = if players == 2 {
        vec![[0, 1, 0, 0], [1, 0, 0, 0]]
    } else {
        (0..players)
            .map(|s| {
                let mut l = [1u8; 4];
                l[s] = 0;
                l
            })
            .collect()
    };
    let run =
        Run { config: Config::standard(players).unwrap(), bots: vec![spec(a), spec(b)], lineups, seed, paired: true };
    let t = Instant::now();
    let mut score = 0.0;
    let mut n = 0usize;
    // In chunks, printing as it goes (a long run still says what it has so far).
    let chunk = 2 * players;
    while n < games {
        let count = chunk.min(games - n);
        let res = run.simulate(first + n as u64, count, threads).unwrap();
        for r in &res {
            let firsts: Vec<usize> = (0..players).filter(|&p| r.ranks[p] == 0).collect();
            let mine = firsts.iter().filter(|&&p| r.lineup[p] == 0).count();
            score += mine as f64 / firsts.len() as f64;
        }
        n += count;
        let (lo, hi) = wilson(score, n as f64);
        eprintln!("  {n} games: {:.1} % [{:.1}, {:.1}]", 100.0 * score / n as f64, 100.0 * lo, 100.0 * hi);
    }
    let (lo, hi) = wilson(score, n as f64);
    println!(
        "{a} vs {b}, {players} players, seed {seed}: {:.1} % [{:.1}, {:.1}] of {n} games ({:.0} s, {threads} thread(s))",
        100.0 * score / n as f64,
        100.0 * lo,
        100.0 * hi,
        t.elapsed().as_secs_f64()
    );
}

/// CPU time of the calling thread in milliseconds (Linux: `/proc/thread-self/schedstat`,
/// nanoseconds on a CPU), or `None` where that file does not exist.
fn thread_cpu_ms() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(s.split_whitespace().next()?.parse::<f64>().ok()? / 1e6)
}

/// Time per decision of `names` in self-play, interleaved game by game (so that a changing
/// load falls on all of them alike): wall clock and the search thread's CPU time.
fn time(names: &str, players: usize, games: usize, seed: u64) {
    let names: Vec<&str> = names.split(',').collect();
    let mut wall = vec![Vec::new(); names.len()];
    let mut cpu = vec![Vec::new(); names.len()];
    let mut moves = Vec::new();
    for g in 0..games as u64 {
        for (k, name) in names.iter().enumerate() {
            let s = spec(name);
            let mut game = Game::new(Config::standard(players).unwrap(), seed + g);
            let mut bots: Vec<_> = (0..players).map(|p| s.build(seed * 31 + g * 7 + p as u64)).collect();
            let (mut history, mut movers) = (Vec::new(), Vec::new());
            while !game.is_over() {
                let seat = game.current_player();
                let bot = &mut bots[seat];
                let (t, c) = (Instant::now(), thread_cpu_ms());
                let mv = bot.choose_move_seen(&game, &history, &movers, &mut moves);
                wall[k].push(t.elapsed().as_secs_f64() * 1e3);
                if let (Some(a), Some(b)) = (c, thread_cpu_ms()) {
                    cpu[k].push(b - a);
                }
                game.play_unchecked(&mv);
                history.push(mv);
                movers.push(seat as u8);
            }
        }
    }
    let q = |v: &mut Vec<f64>, f: f64| {
        v.sort_by(f64::total_cmp);
        v.get(((v.len().max(1) - 1) as f64 * f) as usize).copied().unwrap_or(f64::NAN)
    };
    for (k, name) in names.iter().enumerate() {
        let n = wall[k].len();
        println!(
            "| {name} | {players} | {n} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
            q(&mut wall[k], 0.5),
            q(&mut wall[k], 0.9),
            q(&mut cpu[k], 0.5),
            q(&mut cpu[k], 0.9),
            q(&mut cpu[k], 1.0),
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let num = |i: usize, d: u64| args.get(i).map_or(d, |x| x.parse().expect("a number"));
    match args.first().map(String::as_str) {
        Some("match") => {
            let (games, seed, threads) = (num(4, 100) as usize, num(5, 2026), num(6, 1) as usize);
            play_match(&args[1], &args[2], num(3, 2) as usize, games, seed, threads, num(7, 0))
        }
        Some("time") => time(&args[1], num(2, 2) as usize, num(3, 2) as usize, num(4, 100)),
        _ => eprintln!(
            "usage: master match A B PLAYERS GAMES [SEED] [THREADS] [FIRST] | master time BOT[,BOT...] PLAYERS GAMES [SEED]"
        ),
    }
}
