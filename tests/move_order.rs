//! The move generator against a plain reference, move for move and in order, on 10,000
//! seeded random positions of every rule set; and the whole output against a recorded
//! fingerprint (benches/results/HISTORY.md, "Fixed blocks per free edge"), so that a faster
//! generator cannot change what the bots, the action indices or a replayed record see.

use genial::hex::zone;
use genial::rng::{derive_seed, Rng};
use genial::variants::RULE_OPTIONS;
use genial::{Config, Game, Move, Phase, Placement, Tile};

/// Positions per rule set (every position of seeded random games, game after game).
const POSITIONS: usize = 10_000;

/// The legal moves as `Game::legal_moves` documents them, found with `Game::check` alone:
/// every edge of the zone in row order of its cells, every distinct rack tile in order of
/// first appearance, its colours as the rack holds them, then reversed (not for a double);
/// then `swap` and `keep` where `check` accepts them.
fn reference(g: &Game) -> Vec<Move> {
    let mut tiles: Vec<Tile> = Vec::new();
    for &t in g.rack(g.current_player()).tiles() {
        if !tiles.contains(&t) {
            tiles.push(t);
        }
    }
    let mut out = Vec::new();
    for e in &zone(g.board().radius()).edges {
        for t in &tiles {
            let (x, y) = t.colors();
            let orientations: &[(u8, u8)] = if x == y { &[(x, y)] } else { &[(x, y), (y, x)] };
            for &(ca, cb) in orientations {
                let m = Move::Place(Placement { a: e.a, b: e.b, ca, cb });
                if g.check(&m).is_ok() {
                    out.push(m);
                }
            }
        }
    }
    for m in [Move::Swap, Move::Keep] {
        if g.check(&m).is_ok() {
            out.push(m);
        }
    }
    out
}

/// FNV-1a over the moves' fields: a fingerprint that does not depend on the machine.
fn fingerprint(hash: &mut u64, moves: &[Move]) {
    let mut eat = |byte: u8| {
        *hash ^= byte as u64;
        *hash = hash.wrapping_mul(0x0000_0100_0000_01B3);
    };
    for m in moves {
        match m {
            Move::Place(p) => {
                let (a, b) = (p.a.index() as u16, p.b.index() as u16);
                for byte in [a.to_le_bytes(), b.to_le_bytes(), [p.ca, p.cb]].concat() {
                    eat(byte);
                }
            }
            Move::Swap => eat(0xFE),
            Move::Keep => eat(0xFF),
        }
    }
    eat(0xAA); // one list's end
}

/// Calls `visit` on `POSITIONS` positions of seeded random games of `config`.
fn positions(config: Config, salt: u64, mut visit: impl FnMut(&Game, &[Move])) {
    let mut moves = Vec::new();
    let mut seen = 0;
    let mut game_no = 0;
    while seen < POSITIONS {
        let seed = derive_seed(0x0DE7, salt * 100_000 + game_no);
        game_no += 1;
        let mut g = Game::new(config, seed);
        let mut rng = Rng::new(seed ^ 5);
        while !g.is_over() && seen < POSITIONS {
            g.legal_moves(&mut moves);
            visit(&g, &moves);
            seen += 1;
            let i = rng.below(moves.len() as u32) as usize;
            g.play_unchecked(&moves[i]);
        }
    }
}

#[test]
fn legal_moves_equal_the_reference_in_order_for_every_rule_set() {
    for (ci, config) in Config::all().into_iter().enumerate() {
        positions(config, ci as u64, |g, moves| {
            let want = reference(g);
            assert_eq!(moves, &want[..], "{config:?}: the generator and the reference disagree");
            assert_eq!(g.legal_move_count(), moves.len(), "{config:?}: legal_move_count");
            // `for_each_placement` lists the placements whatever the phase (a swap offer
            // lists none).
            if matches!(g.phase(), Phase::Place | Phase::Bonus) {
                let mut placements = Vec::new();
                g.for_each_placement(|p| placements.push(Move::Place(p)));
                let listed = moves.iter().filter(|m| matches!(m, Move::Place(_))).count();
                assert_eq!(placements, moves[..listed], "{config:?}: for_each_placement");
            }
        });
    }
}

/// The rule options the fingerprint below was recorded with. A rule set with another option
/// away from its default is left out: a new option is new rules, which the fingerprint never
/// saw, and at its default it must change no move, which the rule sets kept here check.
const RECORDED_OPTIONS: [&str; 2] = ["swap_timing", "require_contact"];

/// The fingerprint of every listed move of the positions above. The generator before fixed
/// blocks per free edge (commit 5feb904, this file added) and the one after both give it,
/// and both equal the reference on all of them: a later change of any move or of the order
/// fails here, even one made to the reference as well.
#[test]
fn legal_moves_match_the_recorded_fingerprint() {
    let mut hash = 0xCBF2_9CE4_8422_2325u64;
    let mut lists = 0usize;
    // `Config::all` lists a new option's values innermost, so the recorded rule sets keep
    // their order, hence their seeds.
    let recorded = Config::all().into_iter().filter(|c| {
        RULE_OPTIONS.iter().all(|o| RECORDED_OPTIONS.contains(&o.name) || o.value_in(c) == o.default_value())
    });
    for (ci, config) in recorded.enumerate() {
        positions(config, ci as u64, |_, moves| {
            fingerprint(&mut hash, moves);
            lists += 1;
        });
    }
    let expected: u64 = 0xF0BA_3F00_04E3_69D2;
    assert_eq!(hash, expected, "{lists} move lists: fingerprint {hash:#018x}");
}
