//! The golden numbers (`tests/golden/golden.json`, written by `tests/golden/generate.py`)
//! replayed by the pure core: legal-move counts, moves, tracks, end, ranks, counters and
//! perft. Any change of the rules' behaviour breaks this test at the first decision that
//! differs. The policies are restated here from `generate.py`, not shared with it.

use genial::rng::splitmix64;
use genial::{Config, Game, Move, Record, SwapTiming, Variant};
use serde_json::Value;
use std::path::PathBuf;

fn golden() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/golden.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    serde_json::from_str(&text).unwrap()
}

fn config(row: &Value) -> Config {
    Config::new(
        Variant::parse(row["variant"].as_str().unwrap()).unwrap(),
        row["players"].as_u64().unwrap() as usize,
        SwapTiming::parse(row["swap_timing"].as_str().unwrap()).unwrap(),
        row["require_contact"].as_bool().unwrap(),
    )
    .unwrap()
}

/// The move `policy` plays: see `tests/golden/generate.py`.
fn choose(game: &Game, moves: &[Move], policy: &str, draws: &mut u64) -> Move {
    let mut by_text: Vec<(String, Move)> = moves.iter().map(|m| (m.to_string(), *m)).collect();
    by_text.sort();
    match policy {
        "random" => by_text[(splitmix64(draws) % by_text.len() as u64) as usize].1,
        "points" => {
            let points = |m: &Move| match m {
                Move::Place(p) => {
                    let (a, b) = game.board().placement_points(p.a, p.ca, p.b, p.cb, p.a.direction_to(p.b).unwrap());
                    a as i32 + b as i32
                }
                _ => 0,
            };
            // The most points; the first in text order among equals.
            let best = by_text.iter().map(|(_, m)| points(m)).max().unwrap();
            by_text.iter().find(|(_, m)| points(m) == best).unwrap().1
        }
        other => panic!("unknown policy {other}"),
    }
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect()
}

#[test]
fn golden_games_replay_exactly() {
    let doc = golden();
    let offset = doc["policy_seed_offset"].as_u64().unwrap();
    let rows = doc["games"].as_array().unwrap();
    assert!(rows.len() >= 75);
    let mut moves = Vec::new();
    for row in rows {
        let cfg = config(row);
        let seed = row["seed"].as_u64().unwrap();
        let policy = row["policy"].as_str().unwrap();
        let ctx = format!("{cfg:?} seed {seed} policy {policy}");
        let mut record = Record::new(cfg, seed);
        let mut draws = seed + offset;
        let legal = ints(&row["legal"]);
        let texts = row["moves"].as_array().unwrap();
        let tracks = row["tracks"].as_array().unwrap();
        assert_eq!(legal.len(), texts.len());
        for (i, count) in legal.iter().enumerate() {
            let g = record.game();
            assert!(!g.is_over(), "{ctx}: over before decision {i}");
            g.legal_moves(&mut moves);
            assert_eq!(moves.len() as i64, *count, "{ctx}: legal-move count at decision {i}");
            let m = choose(g, &moves, policy, &mut draws);
            assert_eq!(m.to_string(), texts[i].as_str().unwrap(), "{ctx}: move at decision {i}");
            record.play(&m).unwrap();
            let g = record.game();
            let n = cfg.track_count();
            let flat: Vec<i64> = g.tracks().values[..n].iter().flatten().map(|&v| v as i64).collect();
            assert_eq!(flat, ints(&tracks[i]), "{ctx}: tracks after decision {i} ({m})");
        }
        let g = record.game();
        assert!(g.is_over(), "{ctx}: still running after {} decisions", legal.len());
        // The record (draw order, seed, moves) replays to the same game.
        let origin = record.origin().unwrap();
        let again = Record::replay(cfg, &origin.draw_order, origin.seed, record.history()).unwrap();
        assert_eq!(again.game(), g, "{ctx}: replayed record");
        assert_eq!(g.end().unwrap().name(), row["end"].as_str().unwrap(), "{ctx}: end");
        let ranks: Vec<i64> = g.ranks()[..cfg.players()].iter().map(|&r| r as i64).collect();
        assert_eq!(ranks, ints(&row["ranks"]), "{ctx}: ranks");
        let s = g.stats();
        let st = &row["stats"];
        let got = [s.placements, s.bonus_placements, s.bonuses_lost, s.swaps, s.turns];
        let want = ["placements", "bonus_placements", "bonuses_lost", "swaps", "turns"]
            .map(|k| st[k].as_u64().unwrap() as u16);
        assert_eq!(got, want, "{ctx}: counters");
    }
}

/// Leaves of the full move tree below `g`, `depth` plies deep.
fn perft(g: &Game, depth: usize) -> u64 {
    if depth == 1 {
        return g.legal_move_count() as u64;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .iter()
        .map(|m| {
            let mut child = *g;
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn golden_perft() {
    let doc = golden();
    for row in doc["perft"].as_array().unwrap() {
        let cfg = config(row);
        let seed = row["seed"].as_u64().unwrap();
        let g = Game::new(cfg, seed);
        for (d, want) in row["perft"].as_array().unwrap().iter().enumerate() {
            assert_eq!(perft(&g, d + 1), want.as_u64().unwrap(), "{cfg:?} seed {seed}: perft({})", d + 1);
        }
    }
}
