//! Whole games played inside Rust: one game between bots, and many games spread over a
//! thread pool with results that do not depend on the number of threads.

use crate::bots::Bot;
pub use crate::bots::{bot_seed, AnyBot, BotSpec, Plain};
use crate::game::{End, Game};
use crate::moves::Move;
use crate::rng::{derive_seed, salt, Rng};
use crate::tiles::COLORS;
use crate::variants::Config;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Most threads of a simulation's pool (a pool is built per call).
pub const MAX_THREADS: usize = 1024;
/// Games per chunk of `Run::simulate_chunks`: the results held at once (~80 bytes a game).
pub const CHUNK: usize = 1 << 14;

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

/// Everything a simulation keeps of one finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
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
    /// [`End::code`] of the end reason (names: [`End::NAMES`]).
    pub end: u8,
}

/// A batch of games: the rules, the bots, which bot sits where in each game, and the seeds.
///
/// Game number `g` uses lineup `lineups[g % lineups.len()]`. Its deal comes from
/// `derive_seed(seed, g)`, or with `paired` from `derive_seed(seed, g / lineups.len())`, so
/// that one deal is played once in every lineup (fewer differences that are only luck).
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

    /// Plays game number `g` of the run.
    pub fn play(&self, g: u64, moves: &mut Vec<Move>) -> GameResult {
        self.play_until(g, moves, None).expect("a game without a stop flag is played to the end")
    }

    /// Plays game number `g` of the run, or gives up (`None`) once `stop` is set: it is
    /// read before every decision, and searching bots read it between iterations.
    pub fn play_until(&self, g: u64, moves: &mut Vec<Move>, stop: Option<&Arc<AtomicBool>>) -> Option<GameResult> {
        let l = self.lineups.len() as u64;
        let lineup = self.lineups[(g % l) as usize];
        let seed = derive_seed(self.seed, if self.paired { g / l } else { g });
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
        while !game.is_over() {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return None;
            }
            let bot = bots[game.current_player()].as_mut().expect("every seat has a bot");
            let mv = bot.choose_move(&game, moves);
            game.play_unchecked(&mv);
        }
        let config = game.config();
        let mut scores = [[0; COLORS]; 4];
        for (p, row) in scores.iter_mut().enumerate().take(n) {
            *row = game.tracks().view(config, p);
        }
        let st = game.stats();
        let mut lineup_out = [0u8; 4];
        lineup_out[..n].copy_from_slice(&lineup[..n]);
        Some(GameResult {
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
        })
    }

    /// Games `first .. first + count`, spread over a pool of `threads` threads (0: one per
    /// core) built for this call. The result is the same for any number of threads.
    pub fn simulate(&self, first: u64, count: usize, threads: usize) -> Result<Vec<GameResult>, String> {
        let mut out = Vec::new();
        self.simulate_chunks(first, count, threads, None, |part| out.extend_from_slice(part))?;
        Ok(out)
    }

    /// Games `first .. first + count` over a pool of `threads` threads (0: one per core),
    /// handed to `sink` in game order, `CHUNK` games at a time, so that memory stays flat
    /// however many games are played. Once `stop` is set the games under way give up and
    /// nothing more is handed over: returns `Ok(false)`. The games do not depend on the
    /// number of threads.
    pub fn simulate_chunks(
        &self,
        first: u64,
        count: usize,
        threads: usize,
        stop: Option<&Arc<AtomicBool>>,
        mut sink: impl FnMut(&[GameResult]),
    ) -> Result<bool, String> {
        self.validate()?;
        if first.checked_add(count as u64).is_none() {
            return Err("game numbers overflow 2**64".into());
        }
        if threads > MAX_THREADS {
            return Err(format!("threads must be 1..{MAX_THREADS} (or 0: one per core), not {threads}"));
        }
        // No more threads than games: a pool's threads are started whether used or not.
        let threads = if threads == 0 { 0 } else { threads.min(count.max(1)) };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
        let mut start = 0;
        while start < count {
            let n = CHUNK.min(count - start);
            let part: Option<Vec<GameResult>> = pool.install(|| {
                (start..start + n)
                    .into_par_iter()
                    .with_min_len(16)
                    .map_init(Vec::new, |moves, i| self.play_until(first + i as u64, moves, stop))
                    .collect()
            });
            match part {
                Some(part) => sink(&part),
                None => return Ok(false),
            }
            start += n;
        }
        Ok(!stop.is_some_and(|s| s.load(Ordering::Relaxed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::MctsConfig;
    use crate::game::Phase;

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

    #[test]
    fn a_set_stop_flag_ends_a_run_early_and_chunks_arrive_in_order() {
        let r = run(2, vec![BotSpec::Random, BotSpec::Greedy], vec![[0, 1, 0, 0]], false);
        let stop = Arc::new(AtomicBool::new(true));
        let mut handed = 0;
        assert_eq!(r.simulate_chunks(0, 100, 2, Some(&stop), |p| handed += p.len()), Ok(false));
        assert_eq!(handed, 0);
        stop.store(false, Ordering::Relaxed);
        let mut all = Vec::new();
        assert_eq!(r.simulate_chunks(5, 40, 2, Some(&stop), |p| all.extend_from_slice(p)), Ok(true));
        assert_eq!(all, r.simulate(5, 40, 1).unwrap());
        // A searching bot stops within its search too.
        let mcts = BotSpec::Mcts(MctsConfig { iterations: 0, time_ms: 3_600_000, ..MctsConfig::default() });
        let slow = run(2, vec![mcts], vec![[0, 0, 0, 0]], false);
        let flag = Arc::new(AtomicBool::new(false));
        let setter = {
            let flag = Arc::clone(&flag);
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(100));
                flag.store(true, Ordering::Relaxed);
            })
        };
        let t = std::time::Instant::now();
        assert_eq!(slow.simulate_chunks(0, 1, 1, Some(&flag), |_| ()), Ok(false));
        assert!(t.elapsed().as_secs() < 60);
        setter.join().unwrap();
        assert!(run(2, vec![BotSpec::Random], vec![[0, 0, 0, 0]], false).simulate(0, 1, MAX_THREADS + 1).is_err());
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
    fn same_seed_same_game() {
        let cfg = Config::standard(3).unwrap();
        let mut buf = Vec::new();
        assert_eq!(random_game(cfg, 9, &mut buf), random_game(cfg, 9, &mut buf));
        assert_ne!(random_game(cfg, 9, &mut buf), random_game(cfg, 10, &mut buf));
    }
}
