//! The searching bots' moves, pinned: whole seeded games of `expert`, `master`, `hard` and
//! `mcts` at small budgets, the levels' analyses and their side-by-side comparisons (the
//! review's `compare`), each reduced to a fingerprint recorded from the code as it was
//! before the searches were restructured (issue 45). A refactor of the searches must keep
//! every choice: any change of a visit, a tie-break or a random draw shows here.

use genial::bots::{catalogue, Bot, SearchBot, SearchConfig};
use genial::rng::Rng;
use genial::sim::bot_seed;
use genial::{Config, Game, Move, SwapTiming, Variant};

/// FNV-1a, fed byte strings (a portable, dependency-free fingerprint).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // A separator, so that "ab"+"c" and "a"+"bc" differ.
        self.0 ^= 0xff;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// Every move of one game with every seat played by `spec`, as `sim::Run` plays it (each
/// seat seeded by `bot_seed`, told the public moves so far).
fn game_moves(spec: &str, config: Config, seed: u64) -> Vec<Move> {
    let spec = catalogue::parse(spec).unwrap();
    let n = config.players();
    let mut game = Game::new(config, seed);
    let mut bots: Vec<_> = (0..n).map(|s| spec.build(bot_seed(seed, s))).collect();
    let (mut history, mut movers) = (Vec::new(), Vec::new());
    let mut moves = Vec::new();
    while !game.is_over() {
        let seat = game.current_player();
        let mv = bots[seat].choose_move_seen(&game, &history, &movers, &mut moves);
        game.play_unchecked(&mv);
        history.push(mv);
        movers.push(seat as u8);
    }
    history
}

fn fingerprint_games(spec: &str, config: Config, seeds: &[u64]) -> u64 {
    let mut h = Fnv::new();
    for &seed in seeds {
        for mv in game_moves(spec, config, seed) {
            h.feed(mv.to_string().as_bytes());
        }
    }
    h.0
}

/// A position `plies` random moves into the game of `seed`.
fn position(config: Config, seed: u64, plies: usize) -> Game {
    let mut g = Game::new(config, seed);
    let mut rng = Rng::new(seed ^ 0xA11CE);
    let mut buf = Vec::new();
    for _ in 0..plies {
        if g.is_over() {
            break;
        }
        g.legal_moves(&mut buf);
        g.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
    }
    g
}

/// A position of few free pairs (where `master` solves the endgame exactly), after random
/// moves from the deal of `seed` or the next seed that reaches one.
fn late(config: Config, seed: u64) -> Game {
    let mut buf = Vec::new();
    for s in seed.. {
        let mut g = Game::new(config, s);
        let mut rng = Rng::new(s ^ 0xA11CE);
        while !g.is_over() {
            if g.board().free_pairs() <= 3 {
                return g;
            }
            g.legal_moves(&mut buf);
            g.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
        }
    }
    unreachable!("some seed reaches the endgame")
}

fn level(name: &str, iterations: u32) -> SearchConfig {
    match catalogue::parse(&format!("{name}:iterations={iterations}")).unwrap() {
        genial::bots::BotSpec::Level(_, genial::bots::levels::LevelKind::Search(c)) => c,
        other => panic!("{name} is not a searching level: {other:?}"),
    }
}

fn two() -> Config {
    Config::standard(2).unwrap()
}

#[test]
fn expert_games_are_unchanged() {
    let got = [
        fingerprint_games("expert:iterations=50", two(), &[1, 2]),
        fingerprint_games("expert:iterations=40", Config::standard(3).unwrap(), &[3]),
        fingerprint_games(
            "expert:iterations=30",
            Config::new(Variant::Team, 4, SwapTiming::AfterPlacement, false).unwrap(),
            &[4],
        ),
        fingerprint_games(
            "expert:iterations=40,puct=1.5,swap=never",
            Config::new(Variant::Standard, 2, SwapTiming::InsteadOfPlacement, false).unwrap(),
            &[5],
        ),
        fingerprint_games("hard:iterations=30,widen=2.0,infer=on", two(), &[6]),
    ];
    assert_eq!(
        got,
        [11370492218445348143, 7955194193785033712, 10020778137011475421, 11112544968558356656, 13271349667625451818],
        "{got:?}"
    );
}

#[test]
fn master_games_are_unchanged() {
    let got = [
        fingerprint_games("master:iterations=50", two(), &[1, 2]),
        fingerprint_games("master:iterations=30", Config::standard(4).unwrap(), &[3]),
        fingerprint_games("master:iterations=40,infer=on,puct=1.0", two(), &[4]),
    ];
    // The four-player game changed on purpose twice: `master` took the four-player policy
    // network as its prior there, then its learned evaluation's four-player class learned
    // the searches' root values (the two-player fingerprints stayed both times).
    assert_eq!(got, [9514005658593772421, 5410223966389658113, 1471690825232479667], "{got:?}");
}

#[test]
fn mcts_games_are_unchanged() {
    let got = [
        fingerprint_games("mcts:iterations=50", two(), &[1]),
        fingerprint_games("mcts:iterations=30,playout=sample4,depth=4", Config::standard(3).unwrap(), &[2]),
    ];
    assert_eq!(got, [15795963593255306453, 10525182551811040520], "{got:?}");
}

#[test]
fn analyses_and_comparisons_are_unchanged() {
    let mut h = Fnv::new();
    let mut buf = Vec::new();
    for (k, (name, players, plies)) in
        [("expert", 2, 10), ("expert", 3, 30), ("master", 2, 20), ("master", 4, 40), ("master", 2, usize::MAX)]
            .into_iter()
            .enumerate()
    {
        let seed = 100 + k as u64;
        let config = Config::standard(players).unwrap();
        // The last: the exhaustive endgame's analysis and comparison.
        let g = if plies == usize::MAX { late(config, seed) } else { position(config, seed, plies) };
        g.legal_moves(&mut buf);
        let cfg = level(name, 60);
        let a = SearchBot::new(cfg, 7 + k as u64).analyse(&g, &buf);
        if plies == usize::MAX {
            // Solved over the 2-player count of deals, not searched.
            assert_eq!(a.iterations, 16, "{a:?}");
        }
        h.feed(format!("{} {}", a.iterations, a.nodes).as_bytes());
        for c in &a.candidates {
            h.feed(format!("{} {} {:016x} {:016x}", c.mv, c.visits, c.value.to_bits(), c.prior.to_bits()).as_bytes());
            for m in &c.line {
                h.feed(m.to_string().as_bytes());
            }
        }
        // The review's comparison of the analysis's best moves over common deals.
        let arms: Vec<Move> = a.candidates.iter().take(3).map(|c| c.mv).collect();
        let c = SearchBot::new(cfg, 11 + k as u64).compare(&g, &arms, 12);
        h.feed(c.rounds.to_string().as_bytes());
        for v in c.values.iter().chain(&c.returns) {
            h.feed(&v.to_bits().to_le_bytes());
        }
    }
    // Changed on purpose with the four-player policy network, then with the four-player
    // learned evaluation's root-value stage (both: `master` at four players).
    assert_eq!(h.0, 1065522449977691614, "{}", h.0);
}

#[test]
fn a_searching_bot_plays_its_own_analysis() {
    // The fingerprints above pin `Bot::choose` through the analysis; the two agree.
    let g = position(two(), 9, 12);
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let cfg = level("expert", 40);
    let best = SearchBot::new(cfg, 3).analyse(&g, &moves).candidates[0].mv;
    let mut bot = SearchBot::new(cfg, 3);
    assert_eq!(moves[bot.choose(&g, &moves)], best);
}
