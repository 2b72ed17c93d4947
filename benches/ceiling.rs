//! The ceiling and the budget curve (BENCHMARKS.md, "The ceiling and the budget curve"):
//! what `expert` could gain from seeing everything, and from more time. Not a criterion
//! bench: paired deals against `expert`, two players (or one seat against three experts).
//!
//!     cargo bench --features oracle --bench ceiling -- oracle 1000 [seed] [log] [players]
//!     cargo bench --features oracle --bench ceiling -- expert4 1000 5100000 ceiling.jsonl
//!     cargo bench --features oracle --bench ceiling -- oracle 100 5300000 ceiling.jsonl 4
//!
//! Bots: `oracle` (the expert's search, budget and evaluation, searching the true position:
//! every rack and the bag in its draw order, so it also knows every future draw; an upper
//! bound of what hidden information costs, and a bench only: the `oracle` feature never
//! ships), and `expert4`, `expert16`, `expert64` (the expert at 4×, 16×, 64× its iterations).
//!
//! Deal `i` is `Game::new(standard, seed + i)`, played once with the bot in each seat (twice
//! with two players, four times with four), each seat's bot seeded by `bot_seed` as the
//! simulator seeds it. A deal scores the bot's first places (a k-way tie counts 1/k) over
//! its games: with two players won both, split or lost both. The rate's 95 % interval comes
//! from the spread of the deals' mean scores (the games of a deal are not independent); with
//! four players 25 % is even. Every finished deal is appended to the log
//! (JSON lines) with its CPU time, and a run started again with the same log skips the
//! deals already there: the games are deterministic for a seed (iteration budgets).
//! Seeds: 5,100,000 and up for reports (never used in tuning, training or another report;
//! see benches/strength.py). The log of the deals reported in BENCHMARKS.md is
//! `benches/results/ceiling.jsonl`: given as the log, a run goes on from it (one log holds
//! every bot and seed; two runs at once each need a log of their own, joined afterwards).

use genial::bots::catalogue::level;
use genial::bots::levels::LevelKind;
use genial::bots::{bot_seed, Bot, SearchBot, SearchConfig};
use genial::{Config, Game};
use std::collections::BTreeMap;
use std::io::Write;

fn expert() -> SearchConfig {
    match level("expert") {
        Some(LevelKind::Search(c)) => c,
        _ => unreachable!("expert is a search level"),
    }
}

/// The bot under test, or `None` for an unknown name.
fn build(name: &str, seed: u64) -> Option<SearchBot> {
    let base = expert();
    let times = |k: u32| SearchConfig {
        iterations: base.iterations * k,
        iterations_by_players: base.iterations_by_players.map(|t| t.map(|i| i * k)),
        ..base
    };
    Some(match name {
        "expert" => SearchBot::new(base, seed).named("expert"),
        "oracle" => SearchBot::new(base, seed).named("oracle").seeing_everything(),
        "expert4" => SearchBot::new(times(4), seed).named("expert4"),
        "expert16" => SearchBot::new(times(16), seed).named("expert16"),
        "expert64" => SearchBot::new(times(64), seed).named("expert64"),
        _ => return None,
    })
}

/// The bot's credit in one game of `game_seed` with it in `seat` (1 a win, 1/k a k-way tie
/// for first, 0 a loss).
fn play(name: &str, players: usize, game_seed: u64, seat: usize) -> f64 {
    let mut game = Game::new(Config::standard(players).unwrap(), game_seed);
    let mut bots: Vec<SearchBot> = (0..players)
        .map(|s| {
            let n = if s == seat { name } else { "expert" };
            build(n, bot_seed(game_seed, s)).expect("a known bot")
        })
        .collect();
    let mut moves = Vec::new();
    while !game.is_over() {
        let s = game.current_player();
        let mv = bots[s].choose_move(&game, &mut moves);
        game.play_unchecked(&mv);
    }
    let ranks = game.ranks();
    let firsts = (0..players).filter(|&p| ranks[p] == 0).count();
    if ranks[seat] == 0 {
        1.0 / firsts as f64
    } else {
        0.0
    }
}

/// CPU seconds of this thread (Linux; 0 where `/proc/thread-self/schedstat` is missing).
fn cpu_s() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

/// The deals of `name`, `players` and `seed` already in the log: deal -> (mean score over
/// the seats, CPU seconds). Lines without `players` are two-player deals.
fn done(log: &str, name: &str, players: usize, seed: u64) -> BTreeMap<u64, (f64, f64)> {
    let mut out = BTreeMap::new();
    let Ok(text) = std::fs::read_to_string(log) else { return out };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let r: serde_json::Value = serde_json::from_str(line).expect("a JSON line in the log");
        let n = r["players"].as_u64().unwrap_or(2) as usize;
        if r["bot"] == name && r["seed"] == seed && n == players {
            let d = r["deal"].as_u64().expect("deal");
            let s: Vec<f64> = r["score"].as_array().expect("score").iter().map(|x| x.as_f64().unwrap()).collect();
            out.insert(d, (mean(&s), r["cpu_s"].as_f64().unwrap_or(0.0)));
        }
    }
    out
}

fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

fn summary(name: &str, players: usize, seed: u64, deals: &BTreeMap<u64, (f64, f64)>) -> String {
    let n = deals.len() as f64;
    if n == 0.0 {
        return format!("{name} vs expert, {players} players, seed {seed}: no deals yet");
    }
    let scores: Vec<f64> = deals.values().map(|d| d.0).collect();
    let mean = mean(&scores);
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.959964 * (var / n).sqrt();
    let cpu: f64 = deals.values().map(|d| d.1).sum();
    let split = if players == 2 {
        let both = scores.iter().filter(|&&s| s == 1.0).count();
        let none = scores.iter().filter(|&&s| s == 0.0).count();
        format!(": won both {both}, split {}, lost both {none}", deals.len() - both - none)
    } else {
        String::new()
    };
    format!(
        "{name} vs expert, {players} players, seed {seed}: {} deals ({} games){split}; \
         {:.1} % [{:.1}, {:.1}]; {:.1} CPU-s a deal",
        deals.len(),
        players * deals.len(),
        100.0 * mean,
        100.0 * (mean - half),
        100.0 * (mean + half),
        cpu / n
    )
}

fn main() {
    // `cargo bench` passes `--bench`; the rest are ours.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let usage = "usage: ceiling <oracle|expert4|expert16|expert64> <deals> [seed] [log] [players: 2 or 4]";
    let name = args.first().map(String::as_str).expect(usage);
    assert!(build(name, 0).is_some() && name != "expert", "unknown bot {name}; {usage}");
    let deals: u64 = args.get(1).map_or(1000, |s| s.parse().expect(usage));
    let seed: u64 = args.get(2).map_or(5_100_000, |s| s.parse().expect(usage));
    let log = args.get(3).cloned().unwrap_or_else(|| "ceiling.jsonl".into());
    let players: usize = args.get(4).map_or(2, |s| s.parse().expect(usage));
    assert!(players == 2 || players == 4, "{usage}");
    let mut have = done(&log, name, players, seed);
    eprintln!("{} deals already in {log}", have.len());
    for d in 0..deals {
        if have.contains_key(&d) {
            continue;
        }
        let t = cpu_s();
        let score: Vec<f64> = (0..players).map(|seat| play(name, players, seed + d, seat)).collect();
        let cpu = cpu_s() - t;
        let line =
            serde_json::json!({"bot": name, "players": players, "seed": seed, "deal": d, "score": score, "cpu_s": cpu});
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&log).expect("the log opens");
        // One write of the whole line: runs of several bots append to one log at once, and
        // `writeln!` would write the line and its newline separately.
        f.write_all(format!("{line}\n").as_bytes()).expect("the log is written");
        have.insert(d, (mean(&score), cpu));
        if have.len() % 10 == 0 {
            eprintln!("  {}", summary(name, players, seed, &have));
        }
    }
    println!("{}", summary(name, players, seed, &have));
}
