//! Whole games played inside Rust: one game between bots, and many games spread over a
//! thread pool with results that do not depend on the number of threads.

use crate::bots::Bot;
pub use crate::bots::{bot_seed, AnyBot, BotSpec, Plain};
use crate::game::{End, Game};
use crate::moves::Move;
use crate::rng::{derive_seed, salt, Rng};
use crate::stop::Stop;
use crate::tiles::COLORS;
use crate::variants::Config;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Most threads of a simulation's pool (built per call, when more than one thread plays).
pub const MAX_THREADS: usize = 1024;

/// Plays one game to the end, every decision uniformly at random among all legal moves
/// (enumerated in full each time). `moves` is a reusable buffer: no allocation per decision.
pub fn random_game(config: Config, seed: u64, moves: &mut Vec<Move>) -> Game {
    let mut game = Game::new(config, seed);
    // The deal used the game's own stream; decisions use a separate one from the same seed.
    let mut rng = Rng::new(seed ^ salt::RANDOM_GAME);
    while !game.is_over() {
        game.legal_moves(moves);
        let i = rng.below(moves.len() as u32) as usize;
        game.play_unchecked(&moves[i]);
    }
    game
}

/// Plays `game` to the end, seat `s` choosing with `bots[s]`.
pub fn play_out<B: Bot>(game: &mut Game, bots: &mut [B], moves: &mut Vec<Move>) {
    while !game.is_over() {
        let mv = bots[game.current_player()].choose_move(game, moves);
        game.play_unchecked(&mv);
    }
}

/// Everything a simulation keeps of one finished game: one row of the result schema.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The game's number in its run.
    pub game: u64,
    pub seed: u64,
    /// Per seat, the markers as that seat sees them.
    pub scores: [[i8; COLORS]; 4],
    /// The variant's own tracks (per seat, per team, or one shared).
    pub tracks: [[i8; COLORS]; 4],
    pub ranks: [u8; 4],
    /// Per seat, the index of its bot in the run's bot list.
    pub lineup: [u8; 4],
    pub placements: u16,
    pub bonus_placements: u16,
    pub bonuses_lost: u16,
    pub swaps: u16,
    pub turns: u16,
    /// [`End::code`] of the end reason, or [`FORFEIT`] (names: [`END_NAMES`]).
    pub end: u8,
}

/// The `end` of a game a seat forfeited (its bot failed: an engine hung, crashed, wrote
/// garbage or chose an illegal move), after the game's own end reasons.
pub const FORFEIT: u8 = End::NAMES.len() as u8;

/// The names of a result row's `end` codes: [`End::NAMES`], then `"forfeit"`.
pub const END_NAMES: [&str; 4] = [End::NAMES[0], End::NAMES[1], End::NAMES[2], "forfeit"];

/// The ranking of a game that `seat` forfeited: its side (its team in the team game) ranks
/// last; the other seats keep their order in the position as it stands.
pub fn forfeit_ranks(game: &Game, seat: usize) -> [u8; 4] {
    let config = game.config();
    let n = config.players();
    let side = config.side_of(seat);
    let ranks = game.ranks();
    let others: Vec<usize> = (0..n).filter(|&p| config.side_of(p) != side).collect();
    let mut out = [0u8; 4];
    for (p, rank) in out.iter_mut().enumerate().take(n) {
        *rank = if config.side_of(p) == side {
            others.len() as u8
        } else {
            others.iter().filter(|&&q| ranks[q] < ranks[p]).count() as u8
        };
    }
    out
}

impl GameResult {
    /// The row of a finished game: number `number` of its run, dealt from `seed`, seat `s`
    /// played by bot `lineup[s]` (whoever played it: Rust or Python bots).
    pub fn of(number: u64, seed: u64, game: &Game, lineup: &[u8]) -> GameResult {
        let config = game.config();
        let n = config.players();
        let mut scores = [[0; COLORS]; 4];
        for (p, row) in scores.iter_mut().enumerate().take(n) {
            *row = game.tracks().view(config, p);
        }
        let st = game.stats();
        let mut lineup_out = [0u8; 4];
        lineup_out[..n].copy_from_slice(&lineup[..n]);
        GameResult {
            game: number,
            seed,
            scores,
            tracks: game.tracks().values,
            ranks: game.ranks(),
            lineup: lineup_out,
            placements: st.placements,
            bonus_placements: st.bonus_placements,
            bonuses_lost: st.bonuses_lost,
            swaps: st.swaps,
            turns: st.turns,
            end: game.end().map_or(0, End::code),
        }
    }

    /// The row of a game that `seat` forfeited, as it stood when its bot failed: its
    /// side ranked last ([`forfeit_ranks`]), the end [`FORFEIT`].
    pub fn forfeited(number: u64, seed: u64, game: &Game, lineup: &[u8], seat: usize) -> GameResult {
        GameResult { ranks: forfeit_ranks(game, seat), end: FORFEIT, ..GameResult::of(number, seed, game, lineup) }
    }
}

/// Games per chunk when every bot decides in microseconds: a chunk is the unit in which
/// results are held, handed over and written (about 80 bytes a game).
pub const QUICK_CHUNK: (usize, usize) = (1_000, 100_000);
/// Games per chunk when a bot searches (milliseconds to seconds a move): small, so that a
/// file written chunk by chunk keeps up with the games.
pub const SEARCH_CHUNK: usize = 64;

/// A batch of games: the rules, the bots, which bot sits where in each game, and the seeds.
///
/// Game number `g` uses lineup `lineups[g % lineups.len()]`. Its deal comes from
/// `derive_seed(seed, g)`, or with `paired` from `derive_seed(seed, g / lineups.len())`, so
/// that one deal is played once in every lineup (fewer differences that are only luck).
/// Seat `s` is played by its bot seeded with `bot_seed(deal, s)`.
#[derive(Clone, Debug)]
pub struct Run {
    pub config: Config,
    pub bots: Vec<BotSpec>,
    pub lineups: Vec<[u8; 4]>,
    pub seed: u64,
    pub paired: bool,
}

impl Run {
    /// Checks the run; the error names the problem.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.config.players();
        if self.bots.is_empty() || self.bots.len() > 255 {
            return Err(format!("a run needs 1..255 bots, not {}", self.bots.len()));
        }
        if self.lineups.is_empty() {
            return Err("a run needs at least one lineup".into());
        }
        for l in &self.lineups {
            if let Some(&b) = l[..n].iter().find(|&&b| b as usize >= self.bots.len()) {
                return Err(format!("lineup names bot {b}, but there are only {} bots", self.bots.len()));
            }
        }
        for b in &self.bots {
            b.validate()?;
        }
        Ok(())
    }

    /// The deal of game number `g` and who sits where: `(seed, lineup)`.
    pub fn deal(&self, g: u64) -> (u64, [u8; 4]) {
        let l = self.lineups.len() as u64;
        let seed = derive_seed(self.seed, if self.paired { g / l } else { g });
        (seed, self.lineups[(g % l) as usize])
    }

    /// Whether some bot of the run searches (milliseconds or more a move).
    pub fn searches(&self) -> bool {
        self.bots.iter().any(BotSpec::searches)
    }

    /// The chunking policy of every run, in one place: how many of `games` games to play,
    /// hold and hand over at a time. Small for searching bots, else a twentieth of the run
    /// within `QUICK_CHUNK`.
    pub fn chunk_size(&self, games: u64) -> usize {
        if self.searches() {
            SEARCH_CHUNK
        } else {
            (games / 20).clamp(QUICK_CHUNK.0 as u64, QUICK_CHUNK.1 as u64) as usize
        }
    }

    /// Plays game number `g` of the run.
    pub fn play(&self, g: u64, moves: &mut Vec<Move>) -> GameResult {
        self.play_until(g, moves, None).expect("a game without a stop flag is played to the end")
    }

    /// Plays game number `g` of the run, or gives up (`None`) once `stop` is set: it is
    /// read before every decision, and searching bots read it between iterations.
    pub fn play_until(&self, g: u64, moves: &mut Vec<Move>, stop: Option<&Arc<Stop>>) -> Option<GameResult> {
        let (seed, lineup) = self.deal(g);
        let n = self.config.players();
        let mut game = Game::new(self.config, seed);
        let mut bots: [Option<AnyBot>; 4] = [None, None, None, None];
        for (s, slot) in bots.iter_mut().enumerate().take(n) {
            let mut bot = self.bots[lineup[s] as usize].build(bot_seed(seed, s));
            if let Some(stop) = stop {
                bot.set_stop(stop);
            }
            *slot = Some(bot);
        }
        // The public moves so far, recorded only for bots that read them (rack inference).
        let record = bots.iter().flatten().any(|b| b.reads_history());
        let (mut history, mut movers) = (Vec::new(), Vec::new());
        while !game.is_over() {
            if stop.is_some_and(|s| s.is_flagged()) {
                return None;
            }
            let seat = game.current_player();
            let bot = bots[seat].as_mut().expect("every seat has a bot");
            let mv = bot.choose_move_seen(&game, &history, &movers, moves);
            game.play_unchecked(&mv);
            if record {
                history.push(mv);
                movers.push(seat as u8);
            }
        }
        Some(GameResult::of(g, seed, &game, &lineup))
    }

    /// Games `first .. first + count` on `threads` threads (0: one per core; see [`pool`]).
    /// The result is the same for any number of threads.
    pub fn simulate(&self, first: u64, count: usize, threads: usize) -> Result<Vec<GameResult>, String> {
        self.check(first, count)?;
        let mut out = Vec::new();
        let pool = pool(threads, count)?;
        self.play_range(first, count, pool.as_ref(), None, None, |part| out.extend_from_slice(part));
        Ok(out)
    }

    /// Checks the run and the range of games `first .. first + count`.
    pub fn check(&self, first: u64, count: usize) -> Result<(), String> {
        self.validate()?;
        if first.checked_add(count as u64).is_none() {
            return Err("game numbers overflow 2**64".into());
        }
        Ok(())
    }

    /// The one run loop: games `first .. first + count`, played in parallel on `pool`, or
    /// one after another on the calling thread (`None`: no thread is started), and handed
    /// to `sink` in game order, at most `CHUNK` at a time, so that memory stays flat however
    /// many games are played. `done` counts the games finished so far (for progress).
    ///
    /// Once `stop` is set the games under way give up; every game finished before is still
    /// handed over (some later games of the last chunk may be missing: rows carry their game
    /// number), and the answer is `false`. The games do not depend on the number of threads.
    /// A polling `stop` is polled before each game (and by searching bots between their
    /// iterations), not before every move: a fast bot's move takes less than the clock read.
    pub fn play_range(
        &self,
        first: u64,
        count: usize,
        pool: Option<&rayon::ThreadPool>,
        stop: Option<&Arc<Stop>>,
        done: Option<&AtomicU64>,
        mut sink: impl FnMut(&[GameResult]),
    ) -> bool {
        let play = |moves: &mut Vec<Move>, i: usize| {
            if stop.is_some_and(|s| s.is_set()) {
                return None;
            }
            let r = self.play_until(first + i as u64, moves, stop);
            if let (Some(d), Some(_)) = (done, &r) {
                d.fetch_add(1, Ordering::Relaxed);
            }
            r
        };
        let mut start = 0;
        while start < count {
            let n = CHUNK.min(count - start);
            let part: Vec<Option<GameResult>> = match pool {
                None => {
                    let mut moves = Vec::new();
                    (start..start + n).map(|i| play(&mut moves, i)).collect()
                }
                Some(pool) => pool.install(|| {
                    (start..start + n).into_par_iter().with_min_len(MIN_SPLIT).map_init(Vec::new, play).collect()
                }),
            };
            if part.iter().all(Option::is_some) {
                sink(&part.into_iter().flatten().collect::<Vec<_>>());
            } else {
                let finished: Vec<GameResult> = part.into_iter().flatten().collect();
                if !finished.is_empty() {
                    sink(&finished);
                }
                return false;
            }
            start += n;
        }
        !stop.is_some_and(|s| s.is_set())
    }
}

/// Games held at once inside `Run::play_range` (~80 bytes each).
pub const CHUNK: usize = 1 << 14;

/// The fewest games the run loop hands one thread at a time.
pub const MIN_SPLIT: usize = 16;

/// How many threads play `games` games when `threads` are asked (0: one per core): no more
/// than the run loop splits them into pieces of [`MIN_SPLIT`] games.
pub fn workers(threads: usize, games: usize) -> usize {
    let asked = if threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { threads };
    asked.min(games / MIN_SPLIT).max(1)
}

/// The thread pool for `games` games on `threads` threads (0: one per core; see
/// [`workers`]), or `None` when one thread does: the games are then played on the calling
/// thread and no thread is started (a pool's threads are started whether used or not).
pub fn pool(threads: usize, games: usize) -> Result<Option<rayon::ThreadPool>, String> {
    if threads > MAX_THREADS {
        return Err(format!("threads must be 1..{MAX_THREADS} (or 0: one per core), not {threads}"));
    }
    let threads = workers(threads, games);
    if threads == 1 {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map(Some)
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::MctsConfig;
    use crate::game::Phase;

    /// A run records the public moves for a bot that reads them (rack inference) and tells
    /// it every one: its games are those of a loop that tells the bots the whole history.
    #[test]
    fn bots_that_read_the_moves_are_told_them() {
        use crate::bots::levels::LevelKind;
        use crate::bots::SearchConfig;
        let infer = BotSpec::Level(
            "search",
            LevelKind::Search(SearchConfig { iterations: 8, infer: true, ..Default::default() }),
        );
        assert!(infer.build(1).reads_history() && !BotSpec::Greedy.build(1).reads_history());
        let run = Run {
            config: Config::standard(2).unwrap(),
            bots: vec![infer, BotSpec::Scarcity],
            lineups: vec![[0, 1, 0, 0]],
            seed: 5,
            paired: false,
        };
        let by_hand = |g: u64, tell: bool| {
            let (seed, lineup) = run.deal(g);
            let mut game = Game::new(run.config, seed);
            let mut bots: Vec<_> = (0..2).map(|s| run.bots[lineup[s] as usize].build(bot_seed(seed, s))).collect();
            let (mut history, mut movers, mut moves) = (Vec::new(), Vec::new(), Vec::new());
            while !game.is_over() {
                let seat = game.current_player();
                let mv = bots[seat].choose_move_seen(&game, &history, &movers, &mut moves);
                game.play_unchecked(&mv);
                if tell {
                    history.push(mv);
                    movers.push(seat as u8);
                }
            }
            GameResult::of(g, seed, &game, &lineup)
        };
        let mut differs = false;
        for g in 0..2 {
            let played = run.play(g, &mut Vec::new());
            assert_eq!(played, by_hand(g, true), "game {g}");
            differs |= played != by_hand(g, false);
        }
        // Told nothing, the bot plays otherwise: the check above can fail.
        assert!(differs);
    }

    #[test]
    fn random_games_of_every_variant_end_and_conserve_tiles() {
        let mut buf = Vec::new();
        for cfg in Config::all() {
            for seed in 0..20 {
                let g = random_game(cfg, seed, &mut buf);
                assert_eq!(g.phase(), Phase::Over);
                assert_eq!(g.tile_total(), 120);
                assert!(g.end().is_some());
            }
        }
    }

    fn run(players: usize, bots: Vec<BotSpec>, lineups: Vec<[u8; 4]>, paired: bool) -> Run {
        Run { config: Config::standard(players).unwrap(), bots, lineups, seed: 77, paired }
    }

    #[test]
    fn results_do_not_depend_on_threads_or_chunks() {
        let r = run(3, vec![BotSpec::Random, BotSpec::Greedy], vec![[0, 1, 0, 0], [1, 0, 1, 0]], false);
        let one = r.simulate(0, 40, 1).unwrap();
        assert_eq!(one, r.simulate(0, 40, 2).unwrap());
        let mut parts = r.simulate(0, 15, 2).unwrap();
        parts.extend(r.simulate(15, 25, 1).unwrap());
        assert_eq!(one, parts);
        assert_eq!(one[3].seed, derive_seed(77, 3));
        assert_eq!(one[3].lineup[..3], [1, 0, 1]);
        // Each game matches the same game played seat by seat outside the pool.
        let g = &one[5];
        let mut game = Game::new(r.config, g.seed);
        let mut bots: Vec<AnyBot> = (0..3).map(|s| r.bots[g.lineup[s] as usize].build(bot_seed(g.seed, s))).collect();
        play_out(&mut game, &mut bots, &mut Vec::new());
        assert_eq!(game.ranks(), g.ranks);
        assert_eq!(game.stats().placements, g.placements);
    }

    fn chunks(r: &Run, first: u64, count: usize, threads: usize, stop: &Arc<Stop>) -> (bool, Vec<GameResult>) {
        let mut all = Vec::new();
        let done = AtomicU64::new(0);
        let pool = pool(threads, count).unwrap();
        let ok = r.play_range(first, count, pool.as_ref(), Some(stop), Some(&done), |p| all.extend_from_slice(p));
        assert_eq!(done.load(Ordering::Relaxed), all.len() as u64, "done counts the games handed over");
        (ok, all)
    }

    #[test]
    fn a_set_stop_flag_ends_a_run_early_and_keeps_every_finished_game() {
        let r = run(2, vec![BotSpec::Random, BotSpec::Greedy], vec![[0, 1, 0, 0]], false);
        let stop = Arc::new(Stop::new());
        stop.set();
        assert_eq!(chunks(&r, 0, 100, 2, &stop), (false, vec![]));
        stop.clear();
        let (ok, all) = chunks(&r, 5, 40, 2, &stop);
        assert!(ok);
        assert_eq!(all, r.simulate(5, 40, 1).unwrap());
        assert_eq!(all[0].game, 5);
        // Stopped halfway through a chunk: the games finished are kept, in order, each as
        // it would be in a full run.
        let full = r.simulate(0, 2000, 2).unwrap();
        let n = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&n);
        let halfway = Arc::new(Stop::polling(move || counter.fetch_add(1, Ordering::Relaxed) > 0));
        let calls = Arc::clone(&n);
        let (ok, some) = chunks(&r, 0, 2000, 2, &halfway);
        assert!(!ok && calls.load(Ordering::Relaxed) >= 1);
        assert!(some.len() < 2000);
        assert!(some.windows(2).all(|w| w[0].game < w[1].game));
        assert!(some.iter().all(|g| *g == full[g.game as usize]));
        // A searching bot stops within its search too.
        let mcts = BotSpec::Mcts(MctsConfig { iterations: 0, time_ms: 3_600_000, ..MctsConfig::default() });
        let slow = run(2, vec![mcts], vec![[0, 0, 0, 0]], false);
        let flag = Arc::new(Stop::new());
        let setter = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(100));
                flag.set();
            })
        };
        let t = std::time::Instant::now();
        assert_eq!(chunks(&slow, 0, 1, 1, &flag), (false, vec![]));
        assert!(t.elapsed().as_secs() < 60);
        setter.join().unwrap();
        assert!(run(2, vec![BotSpec::Random], vec![[0, 0, 0, 0]], false).simulate(0, 1, MAX_THREADS + 1).is_err());
    }

    #[test]
    fn the_chunking_policy_follows_the_bots() {
        let quick = run(2, vec![BotSpec::Random, BotSpec::Greedy], vec![[0, 1, 0, 0]], false);
        assert_eq!(quick.chunk_size(10), QUICK_CHUNK.0);
        assert_eq!(quick.chunk_size(200_000), 10_000);
        assert_eq!(quick.chunk_size(u64::MAX), QUICK_CHUNK.1);
        let mcts = BotSpec::Mcts(MctsConfig::default());
        let slow = run(2, vec![BotSpec::Random, mcts], vec![[0, 1, 0, 0]], false);
        assert!(slow.searches() && !quick.searches());
        assert_eq!(slow.chunk_size(1_000_000), SEARCH_CHUNK);
    }

    #[test]
    fn paired_runs_share_deals_across_lineups() {
        let r = run(2, vec![BotSpec::Random, BotSpec::Greedy], vec![[0, 1, 0, 0], [1, 0, 0, 0]], true);
        let res = r.simulate(0, 6, 2).unwrap();
        assert_eq!(res[0].seed, res[1].seed);
        assert_ne!(res[1].seed, res[2].seed);
        assert_eq!(res[2].seed, derive_seed(77, 1));
    }

    #[test]
    fn bad_runs_are_refused() {
        assert!(run(2, vec![BotSpec::Random], vec![[0, 1, 0, 0]], false).simulate(0, 1, 1).is_err());
        assert!(run(2, vec![BotSpec::Random], vec![], false).simulate(0, 1, 1).is_err());
        let bad = BotSpec::Mcts(MctsConfig { iterations: 0, ..MctsConfig::default() });
        assert!(run(2, vec![bad], vec![[0, 0, 0, 0]], false).simulate(0, 1, 1).is_err());
    }

    #[test]
    fn a_forfeit_sinks_the_side_and_keeps_the_others_order() {
        let mut buf = Vec::new();
        let mut game = Game::new(Config::standard(3).unwrap(), 5);
        let mut rng = Rng::new(1);
        for _ in 0..40 {
            game.legal_moves(&mut buf);
            game.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
        }
        let ranks = game.ranks();
        let r = forfeit_ranks(&game, 0);
        assert_eq!(r[0], 2);
        assert_eq!((r[1] < r[2]), (ranks[1] < ranks[2]));
        assert_eq!((r[1] == r[2]), (ranks[1] == ranks[2]));
        let row = GameResult::forfeited(7, 5, &game, &[0, 1, 2], 0);
        assert_eq!((row.ranks, row.end, row.game), (r, FORFEIT, 7));
        assert_eq!(END_NAMES[FORFEIT as usize], "forfeit");
        assert_eq!(row.placements, GameResult::of(7, 5, &game, &[0, 1, 2]).placements);
        // In the team game the partner sinks too.
        let team = Game::new(Config::all().into_iter().find(|c| c.team_of(0).is_some()).unwrap(), 3);
        let r = forfeit_ranks(&team, 1);
        assert_eq!((r[1], r[3], r[0], r[2]), (2, 2, 0, 0));
    }

    #[test]
    fn same_seed_same_game() {
        let cfg = Config::standard(3).unwrap();
        let mut buf = Vec::new();
        assert_eq!(random_game(cfg, 9, &mut buf), random_game(cfg, 9, &mut buf));
        assert_ne!(random_game(cfg, 9, &mut buf), random_game(cfg, 10, &mut buf));
    }
}
