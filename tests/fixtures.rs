//! Replays the recorded games in `tests/data/fixtures/` (from an independent engine) and
//! checks every legal-move count and hash, every score, bonus and draw, and the ranking.

use genial::tiles::{parse_color, Tile};
use genial::{Cell, Config, Game, Move, Phase, Placement};
use serde_json::Value;
use std::path::PathBuf;

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fixtures")
}

fn tile(v: &Value) -> Tile {
    let a = parse_color(v[0].as_str().unwrap()).unwrap();
    let b = parse_color(v[1].as_str().unwrap()).unwrap();
    Tile::new(a, b)
}

/// FNV-1a over the sorted `q1,r1,c1,q2,r2,c2` lines, as the fixtures define it.
pub fn legal_hash(game: &Game) -> (usize, String) {
    let mut lines: Vec<[i32; 6]> = Vec::new();
    game.for_each_placement(|p| {
        let mut h = [(p.a.q(), p.a.r(), p.ca as i32), (p.b.q(), p.b.r(), p.cb as i32)];
        h.sort();
        lines.push([h[0].0, h[0].1, h[0].2, h[1].0, h[1].1, h[1].2]);
    });
    lines.sort();
    let mut hash: u64 = 0xcbf29ce484222325;
    for l in &lines {
        let text = format!("{},{},{},{},{},{}\n", l[0], l[1], l[2], l[3], l[4], l[5]);
        for byte in text.bytes() {
            hash ^= byte as u64;
            hash = hash.wrapping_mul(0x100000001b3);
        }
    }
    (lines.len(), format!("{hash:016x}"))
}

fn sorted(mut v: Vec<Tile>) -> Vec<Tile> {
    v.sort();
    v
}

#[test]
fn recorded_games_replay_exactly() {
    let mut games = 0;
    for name in ["games_2p.jsonl", "games_3p.jsonl", "games_4p.jsonl"] {
        let path = fixtures_dir().join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let rec: Value = serde_json::from_str(line).unwrap();
            replay(&rec);
            games += 1;
        }
    }
    assert_eq!(games, 14);
}

fn replay(rec: &Value) {
    let players = rec["players"].as_u64().unwrap() as usize;
    let bag: Vec<Tile> = rec["bag"].as_array().unwrap().iter().map(tile).collect();
    let mut g = Game::with_bag(Config::standard(players).unwrap(), &bag, 0).unwrap();
    let seed = rec["seed"].as_u64().unwrap();
    let mut moves = Vec::new();
    for (i, t) in rec["turns"].as_array().unwrap().iter().enumerate() {
        let ctx = format!("game {seed} turn {i}");
        let player = t["player"].as_u64().unwrap() as usize;
        assert_eq!(g.current_player(), player, "{ctx}");
        let rack: Vec<Tile> = t["rack"].as_array().unwrap().iter().map(tile).collect();
        assert_eq!(sorted(g.rack(player).tiles().to_vec()), sorted(rack), "{ctx}: rack");
        assert_eq!(g.phase() == Phase::Bonus, t["bonus"].as_bool().unwrap(), "{ctx}: bonus");
        let (n, h) = legal_hash(&g);
        assert_eq!(n as u64, t["legal"].as_u64().unwrap(), "{ctx}: legal count");
        assert_eq!(h, t["legal_hash"].as_str().unwrap(), "{ctx}: legal hash");
        g.legal_moves(&mut moves);
        assert_eq!(moves.len(), n, "{ctx}: legal_moves agrees with the count");

        let m = t["move"].as_array().unwrap();
        let cell = |k: usize| Cell::new(m[k].as_i64().unwrap() as i32, m[k + 1].as_i64().unwrap() as i32).unwrap();
        let col = |k: usize| parse_color(m[k].as_str().unwrap()).unwrap();
        let mv = Move::Place(Placement::new(cell(0), col(2), cell(3), col(5)));
        assert!(moves.contains(&mv), "{ctx}: recorded move is generated");
        let report = g.play(&mv).unwrap_or_else(|e| panic!("{ctx}: {e}"));

        let mut gains = [0u8; 6];
        for (k, v) in t["gains"].as_object().unwrap() {
            gains[parse_color(k).unwrap() as usize] = v.as_u64().unwrap() as u8;
        }
        assert_eq!(report.gains, gains, "{ctx}: gains");
        let scores: Vec<i8> = t["scores_after"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap() as i8).collect();
        assert_eq!(g.tracks().values[player].to_vec(), scores, "{ctx}: scores");
        assert_eq!(report.bonuses_earned as u64, t["ingenious"].as_u64().unwrap(), "{ctx}: bonuses earned");
        let bonus_next = t["bonus_next"].as_bool().unwrap();
        assert_eq!(g.phase() == Phase::Bonus, bonus_next, "{ctx}: bonus next");
        if g.phase() == Phase::SwapOffer {
            // The recorded players never swap.
            let r = g.play(&Move::Keep).unwrap();
            assert_eq!(r.drawn as usize, t["drawn"].as_array().unwrap().len(), "{ctx}: drawn");
        } else if !bonus_next && !g.is_over() {
            assert_eq!(report.drawn as usize, t["drawn"].as_array().unwrap().len(), "{ctx}: drawn");
        }
        assert_eq!(g.tile_total(), 120, "{ctx}: tiles conserved");
    }
    assert!(g.is_over(), "game {seed} should be over");
    assert_eq!(g.end().unwrap().name(), rec["end"].as_str().unwrap());
    for (p, s) in rec["final_scores"].as_array().unwrap().iter().enumerate() {
        let s: Vec<i8> = s.as_array().unwrap().iter().map(|v| v.as_i64().unwrap() as i8).collect();
        assert_eq!(g.tracks().values[p].to_vec(), s, "game {seed}: final scores");
    }
    let ranks = g.ranks();
    for (rank, group) in rec["ranking_groups"].as_array().unwrap().iter().enumerate() {
        for p in group.as_array().unwrap() {
            let p = p.as_u64().unwrap() as usize;
            // Groups are consecutive; a seat's rank counts the seats ahead of it.
            let ahead: usize =
                rec["ranking_groups"].as_array().unwrap()[..rank].iter().map(|g| g.as_array().unwrap().len()).sum();
            assert_eq!(ranks[p] as usize, ahead, "game {seed}: rank of {p}");
        }
    }
}
