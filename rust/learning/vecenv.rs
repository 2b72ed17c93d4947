//! Many games stepped together, for training: actions in, observations, legal masks,
//! rewards and dones out, finished games replaced at once (auto-reset).
//!
//! Deterministic whatever the thread count: env `i` plays the games seeded
//! `derive_seed(derive_seed(seed, i), k)` for `k = 0, 1, ...`, and samples random actions
//! from its own generator, so no result depends on how envs are spread over threads.

use crate::actions::{action_to_move, legal_action_mask_with, move_actions, ACTION_COUNT, PLACEMENTS_PER_SLOT};
use crate::bots::policy::{MoveFeatures, PF};
use crate::game::Game;
use crate::moves::Move;
use crate::observation::{observe, OBS_SIZE};
use crate::rng::{derive_seed, salt, Rng};
use crate::variants::Config;
use std::fmt;

/// A refused batch of actions: which env, and why. Nothing was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepError {
    pub env: usize,
    /// The action is not in `0..ACTION_COUNT` (otherwise: not legal now).
    pub out_of_range: bool,
    pub message: String,
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "env {}: {}", self.env, self.message)
    }
}

/// One env of the batch: its game, the seed its games are dealt from, how many it has
/// finished, its action sampler and the legal actions of its position.
#[derive(Clone, Debug)]
struct Env {
    game: Game,
    env_seed: u64,
    episode: u64,
    sampler: Rng,
    legal: Legal,
    /// `legal` is out of date (the env was settled without writing results): read it again
    /// before sampling.
    stale: bool,
}

/// The legal actions of a position in compact form, for sampling: the placement edges
/// (as the dense action offsets of their two ways round), the rack size, and the swap /
/// keep actions.
#[derive(Clone, Debug, Default)]
struct Legal {
    edges: Vec<(u16, u16)>,
    rack_slots: u16,
    extra: [u16; 2],
    extras: u8,
}

impl Legal {
    /// Reads the legal actions of `game` and writes its mask.
    #[inline]
    fn read(&mut self, game: &Game, mask: &mut [bool]) {
        self.edges.clear();
        self.extras = 0;
        self.rack_slots = game.rack(game.current_player()).len() as u16;
        let edges = &mut self.edges;
        let (extra, extras) = (&mut self.extra, &mut self.extras);
        legal_action_mask_with(
            game,
            mask,
            |ia, ib| edges.push((ia as u16, ib as u16)),
            |a| {
                extra[*extras as usize] = a as u16;
                *extras += 1;
            },
        );
    }

    fn count(&self) -> usize {
        self.edges.len() * self.rack_slots as usize * 2 + self.extras as usize
    }

    /// The `k`-th legal action (`k < count()`), edges first.
    fn nth(&self, k: usize) -> usize {
        let per_edge = self.rack_slots as usize * 2;
        let placements = self.edges.len() * per_edge;
        if k >= placements {
            return self.extra[k - placements] as usize;
        }
        let (ia, ib) = self.edges[k / per_edge];
        let r = k % per_edge;
        let offset = if r % 2 == 0 { ia } else { ib };
        (r / 2) * PLACEMENTS_PER_SLOT + offset as usize
    }
}

/// Where one step's results go: row `i` of each belongs to env `i`.
pub struct Outputs<'a> {
    /// `num_envs × OBS_SIZE`: the observation of the seat to move.
    pub obs: &'a mut [f32],
    /// `num_envs × ACTION_COUNT`: its legal actions.
    pub mask: &'a mut [bool],
    /// `num_envs`: the seat to move.
    pub players: &'a mut [i64],
    /// `num_envs × players`: rewards of the game finished by this step (else 0). Empty on reset.
    pub rewards: &'a mut [f32],
    /// `num_envs`: the step finished a game (the row shows the next game). Empty on reset.
    pub dones: &'a mut [bool],
}

/// Row-aligned pieces of the envs and outputs, split in halves for parallel work.
struct Rows<'a> {
    envs: &'a mut [Env],
    moves: &'a [Option<Move>],
    out: Outputs<'a>,
}

impl<'a> Rows<'a> {
    fn len(&self) -> usize {
        self.envs.len()
    }

    fn split(self, at: usize, seats: usize) -> (Rows<'a>, Rows<'a>) {
        fn cut<T>(s: &mut [T], at: usize) -> (&mut [T], &mut [T]) {
            let at = at.min(s.len());
            s.split_at_mut(at)
        }
        let (s0, s1) = self.envs.split_at_mut(at);
        let (m0, m1) = self.moves.split_at(at.min(self.moves.len()));
        let (o0, o1) = cut(self.out.obs, at * OBS_SIZE);
        let (k0, k1) = cut(self.out.mask, at * ACTION_COUNT);
        let (p0, p1) = cut(self.out.players, at);
        let (r0, r1) = cut(self.out.rewards, at * seats);
        let (d0, d1) = cut(self.out.dones, at);
        (
            Rows { envs: s0, moves: m0, out: Outputs { obs: o0, mask: k0, players: p0, rewards: r0, dones: d0 } },
            Rows { envs: s1, moves: m1, out: Outputs { obs: o1, mask: k1, players: p1, rewards: r1, dones: d1 } },
        )
    }
}

/// The action that leaves an env as it is in a step: it plays nothing, pays nothing and
/// writes the env's observation again. A caller that plays some envs' decisions itself
/// (bots for the seats its agent does not hold) steps the others with it.
pub const SKIP: i64 = -1;

/// A batch of games of one configuration.
pub struct VecEnv {
    config: Config,
    envs: Vec<Env>,
    /// The prepared step's moves, one per env (`None`: skipped); empty when the next
    /// `run_rows` plays nothing (a reset or an observation).
    moves: Vec<Option<Move>>,
    pool: Option<rayon::ThreadPool>,
    threads: usize,
}

/// Most envs in one `VecEnv`: each step writes about 14 KB of observation and mask per
/// env (0.9 GB at this limit), and a call at this size takes about 0.3 s of one core (the
/// first ones up to about 2 s while that memory is first touched). The Python bindings run
/// a call in slices of envs (`run_rows`) and look for Ctrl-C between them.
pub const MAX_ENVS: usize = 1 << 16;
/// Most threads of a `VecEnv`'s pool.
pub const MAX_THREADS: usize = crate::sim::MAX_THREADS;

impl VecEnv {
    /// `num_envs` games of `config` seeded from `seed`, stepped on `threads` threads
    /// (1: on the calling thread).
    pub fn new(config: Config, num_envs: usize, seed: u64, threads: usize) -> Result<VecEnv, String> {
        if !(1..=MAX_ENVS).contains(&num_envs) {
            return Err(format!("num_envs must be 1..{MAX_ENVS}, not {num_envs}"));
        }
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(format!("threads must be 1..{MAX_THREADS}, not {threads}"));
        }
        let pool = if threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| format!("cannot start {threads} threads: {e}"))?,
            )
        } else {
            None
        };
        let mut env = VecEnv { config, envs: Vec::with_capacity(num_envs), moves: Vec::new(), pool, threads };
        env.seed_envs(num_envs, seed);
        Ok(env)
    }

    fn seed_envs(&mut self, n: usize, seed: u64) {
        self.envs.clear();
        // One scratch mask for all envs (the envs' masks are written by `run`).
        let mut scratch = vec![false; ACTION_COUNT];
        for i in 0..n {
            let env_seed = derive_seed(seed, i as u64);
            let game = Game::new(self.config, derive_seed(env_seed, 0));
            let mut legal = Legal { edges: Vec::with_capacity(256), ..Legal::default() };
            legal.read(&game, &mut scratch);
            self.envs.push(Env {
                game,
                env_seed,
                episode: 0,
                sampler: Rng::new(env_seed ^ salt::ENV_SAMPLER),
                legal,
                stale: false,
            });
        }
    }

    pub fn num_envs(&self) -> usize {
        self.envs.len()
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The game running in env `i`.
    pub fn game(&self, i: usize) -> &Game {
        &self.envs[i].game
    }

    /// The legal moves of every env's seat to move, as rows for a policy that scores
    /// moves (`bots::policy`): the move's features (`PF` a row) into `features`, its env
    /// into `env` and its action (the lowest that stands for it) into `actions`; envs in
    /// order, each env's moves in `Game::legal_moves` order. Reads what the mover may see.
    pub fn move_features(&self, features: &mut Vec<f32>, env: &mut Vec<i64>, actions: &mut Vec<i64>) {
        features.clear();
        env.clear();
        actions.clear();
        let mut moves = Vec::new();
        let mut x = [0.0f32; PF];
        for (i, e) in self.envs.iter().enumerate() {
            e.game.legal_moves(&mut moves);
            let f = MoveFeatures::new(&e.game);
            for m in &moves {
                f.of(m, &mut x);
                features.extend_from_slice(&x);
                env.push(i as i64);
                actions.push(move_actions(&e.game, m)[0] as i64);
            }
        }
    }

    /// Games finished so far by env `i` since the last reset.
    pub fn episodes(&self, i: usize) -> u64 {
        self.envs[i].episode
    }

    /// Starts every env afresh from `seed` and writes the first observations
    /// (`out.rewards` and `out.dones` are ignored).
    pub fn reset(&mut self, seed: u64, out: Outputs<'_>) {
        self.prepare_reset(seed);
        let out = Outputs { rewards: &mut [], dones: &mut [], ..out };
        self.run_rows(0..self.envs.len(), out);
    }

    /// Writes the current observations without changing anything (`out.rewards` and
    /// `out.dones` are ignored).
    pub fn observe(&mut self, out: Outputs<'_>) {
        self.prepare_observe();
        let out = Outputs { rewards: &mut [], dones: &mut [], ..out };
        self.run_rows(0..self.envs.len(), out);
    }

    /// Plays `actions[i]` in env `i` for every env (`SKIP`: none there), replaces finished
    /// games with new ones, and writes the results. Every action is checked first: on error
    /// nothing is played.
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<(), StepError> {
        self.prepare_step(actions)?;
        self.run_rows(0..self.envs.len(), out);
        Ok(())
    }

    /// The first half of `reset` in slices: every env dealt anew from `seed`; `run_rows`
    /// then writes the observations of each slice of envs.
    pub fn prepare_reset(&mut self, seed: u64) {
        self.seed_envs(self.envs.len(), seed);
        self.moves.clear();
    }

    /// The first half of `observe` in slices: nothing to play.
    pub fn prepare_observe(&mut self) {
        self.moves.clear();
    }

    /// The first half of `step` in slices: checks every action and keeps its move, playing
    /// nothing; `run_rows` then plays and observes each slice of envs. On error nothing is
    /// kept and a later `run_rows` plays nothing.
    pub fn prepare_step(&mut self, actions: &[i64]) -> Result<(), StepError> {
        assert_eq!(actions.len(), self.envs.len(), "one action per env");
        self.moves.clear();
        let checked = self.check_actions(actions);
        if checked.is_err() {
            self.moves.clear();
        }
        checked
    }

    fn check_actions(&mut self, actions: &[i64]) -> Result<(), StepError> {
        for (env, (&a, e)) in actions.iter().zip(&self.envs).enumerate() {
            if a == SKIP {
                self.moves.push(None);
                continue;
            }
            if !(0..ACTION_COUNT as i64).contains(&a) {
                return Err(StepError {
                    env,
                    out_of_range: true,
                    message: format!(
                        "action {a} is out of range: actions are 0..{}, or {SKIP} to skip the env",
                        ACTION_COUNT - 1
                    ),
                });
            }
            let illegal = |why: String| StepError { env, out_of_range: false, message: why };
            let mv = action_to_move(&e.game, a as usize).map_err(|e| illegal(e.to_string()))?;
            e.game.check(&mv).map_err(|e| illegal(format!("action {a} ({mv}) is not legal now: {e}")))?;
            self.moves.push(Some(mv));
        }
        Ok(())
    }

    /// Plays the prepared moves of the envs in `rows` (none after `prepare_reset` or
    /// `prepare_observe`) and writes their results into `out`, whose row `i` belongs to env
    /// `rows.start + i`.
    pub fn run_rows(&mut self, rows: std::ops::Range<usize>, out: Outputs<'_>) {
        let n = rows.len();
        let seats = self.config.players();
        assert_eq!(out.obs.len(), n * OBS_SIZE, "observations: rows × OBS_SIZE");
        assert_eq!(out.mask.len(), n * ACTION_COUNT, "masks: rows × ACTION_COUNT");
        assert_eq!(out.players.len(), n, "players: rows");
        assert!(out.rewards.is_empty() || out.rewards.len() == n * seats, "rewards: rows × players");
        assert!(out.dones.is_empty() || out.dones.len() == n, "dones: rows");
        let config = self.config;
        let moves = if self.moves.is_empty() { &[][..] } else { &self.moves[rows.clone()] };
        let rows = Rows { envs: &mut self.envs[rows], moves, out };
        match &self.pool {
            // Small batches: a few envs per task; a task of ~10 µs amortises the fork.
            Some(pool) if n >= 8 => {
                let grain = (n / (self.threads * 4)).max(4);
                pool.install(|| par_rows(rows, grain, seats, &config));
            }
            _ => seq_rows(rows, seats, &config),
        }
    }

    /// Plays the prepared moves of the envs in `rows` without writing results: how a batch
    /// stopped part way (Ctrl-C between slices) is finished, so that every env has taken its
    /// action and none is left behind the others. Quick: the legal actions that sampling
    /// reads are worked out later, when `sample_actions` needs them.
    pub fn settle_rows(&mut self, rows: std::ops::Range<usize>) {
        if self.moves.is_empty() {
            return;
        }
        for i in rows {
            let Some(mv) = &self.moves[i] else { continue };
            let e = &mut self.envs[i];
            e.game.play_unchecked(mv);
            if e.game.is_over() {
                e.episode += 1;
                e.game = Game::new(self.config, derive_seed(e.env_seed, e.episode));
            }
            e.stale = true;
        }
    }

    /// A uniformly random legal action for every env, from each env's own generator.
    pub fn sample_actions(&mut self, out: &mut [i64]) {
        assert_eq!(out.len(), self.envs.len(), "one action per env");
        let mut scratch = Vec::new();
        for (e, a) in self.envs.iter_mut().zip(out.iter_mut()) {
            if e.stale {
                scratch.resize(ACTION_COUNT, false);
                e.legal.read(&e.game, &mut scratch);
                e.stale = false;
            }
            let n = e.legal.count() as u32;
            *a = e.legal.nth(e.sampler.below(n) as usize) as i64;
        }
    }
}

fn par_rows(rows: Rows<'_>, grain: usize, seats: usize, config: &Config) {
    if rows.len() <= grain {
        return seq_rows(rows, seats, config);
    }
    let half = rows.len() / 2;
    let (a, b) = rows.split(half, seats);
    rayon::join(|| par_rows(a, grain, seats, config), || par_rows(b, grain, seats, config));
}

fn seq_rows(rows: Rows<'_>, seats: usize, config: &Config) {
    let Rows { envs, moves, out } = rows;
    for (i, e) in envs.iter_mut().enumerate() {
        match moves.get(i) {
            Some(Some(mv)) => {
                e.game.play_unchecked(mv);
                let done = e.game.is_over();
                let reward = e.game.returns();
                for (o, r) in out.rewards[i * seats..(i + 1) * seats].iter_mut().zip(reward) {
                    *o = r as f32;
                }
                out.dones[i] = done;
                if done {
                    e.episode += 1;
                    e.game = Game::new(*config, derive_seed(e.env_seed, e.episode));
                }
            }
            Some(None) => {
                // Skipped: nothing played, nothing paid.
                out.rewards[i * seats..(i + 1) * seats].fill(0.0);
                out.dones[i] = false;
            }
            None => {}
        }
        let game = &e.game;
        let player = game.current_player();
        out.players[i] = player as i64;
        observe(game, player, &mut out.obs[i * OBS_SIZE..(i + 1) * OBS_SIZE]);
        e.legal.read(game, &mut out.mask[i * ACTION_COUNT..(i + 1) * ACTION_COUNT]);
        e.stale = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{SwapTiming, Variant};

    struct Buffers {
        obs: Vec<f32>,
        mask: Vec<bool>,
        players: Vec<i64>,
        rewards: Vec<f32>,
        dones: Vec<bool>,
    }

    impl Buffers {
        fn new(n: usize, seats: usize) -> Buffers {
            Buffers {
                obs: vec![0.0; n * OBS_SIZE],
                mask: vec![false; n * ACTION_COUNT],
                players: vec![0; n],
                rewards: vec![0.0; n * seats],
                dones: vec![false; n],
            }
        }
        fn out(&mut self) -> Outputs<'_> {
            Outputs {
                obs: &mut self.obs,
                mask: &mut self.mask,
                players: &mut self.players,
                rewards: &mut self.rewards,
                dones: &mut self.dones,
            }
        }
    }

    /// Plays `steps` random steps and returns a digest of everything written.
    fn run(config: Config, n: usize, threads: usize, steps: usize) -> (Vec<f32>, Vec<bool>, Vec<i64>, Vec<f32>, u64) {
        let mut env = VecEnv::new(config, n, 7, threads).unwrap();
        let mut b = Buffers::new(n, config.players());
        env.reset(7, b.out());
        let mut actions = vec![0i64; n];
        let mut total_rewards = vec![0.0f32; n * config.players()];
        let mut dones = 0u64;
        for _ in 0..steps {
            env.sample_actions(&mut actions);
            env.step(&actions, b.out()).unwrap();
            for (t, r) in total_rewards.iter_mut().zip(&b.rewards) {
                *t += r;
            }
            dones += b.dones.iter().filter(|&&d| d).count() as u64;
        }
        (b.obs, b.mask, b.players, total_rewards, dones)
    }

    #[test]
    fn same_results_on_any_thread_count() {
        let config = Config::standard(2).unwrap();
        let one = run(config, 24, 1, 150);
        assert!(one.4 > 0, "some games should finish in 150 steps");
        assert_eq!(one, run(config, 24, 2, 150));
        assert_eq!(one, run(config, 24, 3, 150));
    }

    #[test]
    fn a_skipped_env_stays_as_it_is() {
        let config = Config::standard(2).unwrap();
        let mut env = VecEnv::new(config, 4, 3, 1).unwrap();
        let mut b = Buffers::new(4, 2);
        env.reset(3, b.out());
        let mut actions = vec![0i64; 4];
        for step in 0..120 {
            let before: Vec<Game> = (0..4).map(|i| *env.game(i)).collect();
            let obs_before = b.obs.clone();
            env.sample_actions(&mut actions);
            let skipped = step % 4;
            actions[skipped] = SKIP;
            b.rewards.fill(7.0);
            b.dones.fill(true);
            env.step(&actions, b.out()).unwrap();
            assert!(*env.game(skipped) == before[skipped], "a skipped env does not move");
            assert_eq!(&b.rewards[skipped * 2..skipped * 2 + 2], &[0.0, 0.0]);
            assert!(!b.dones[skipped]);
            let row = skipped * OBS_SIZE..(skipped + 1) * OBS_SIZE;
            assert_eq!(&b.obs[row.clone()], &obs_before[row], "its observation is written again");
        }
        // Out of range below SKIP is refused, and nothing moves.
        let before: Vec<Game> = (0..4).map(|i| *env.game(i)).collect();
        env.sample_actions(&mut actions);
        actions[2] = SKIP - 1;
        let err = env.step(&actions, b.out()).unwrap_err();
        assert!(err.out_of_range && err.env == 2);
        assert!((0..4).all(|i| *env.game(i) == before[i]));
    }

    #[test]
    fn finished_games_restart_and_pay_rewards() {
        let config = Config::new(Variant::Duel, 2, SwapTiming::AfterPlacement, false).unwrap();
        let mut env = VecEnv::new(config, 3, 1, 1).unwrap();
        let mut b = Buffers::new(3, 2);
        env.reset(1, b.out());
        let mut actions = vec![0i64; 3];
        let mut finished = 0;
        while finished < 5 {
            let before: Vec<Game> = (0..3).map(|i| *env.game(i)).collect();
            env.sample_actions(&mut actions);
            env.step(&actions, b.out()).unwrap();
            for i in 0..3 {
                if b.dones[i] {
                    finished += 1;
                    let mut g = before[i];
                    g.play(&action_to_move(&g, actions[i] as usize).unwrap()).unwrap();
                    assert!(g.is_over());
                    assert_eq!(
                        b.rewards[2 * i..2 * i + 2],
                        g.returns()[..2].iter().map(|&r| r as f32).collect::<Vec<_>>()[..]
                    );
                    assert_eq!(env.game(i).stats().placements, 0, "a fresh game");
                    assert_eq!(*env.game(i), Game::new(config, derive_seed(derive_seed(1, i as u64), env.episodes(i))));
                } else {
                    assert_eq!(b.rewards[2 * i..2 * i + 2], [0.0, 0.0]);
                }
            }
        }
    }

    /// A step run in slices, or stopped after some slices and settled, leaves every env
    /// exactly as the whole step does, and the slices write what the whole step writes.
    #[test]
    fn a_step_in_slices_or_stopped_and_settled_is_the_whole_step() {
        let config = Config::standard(2).unwrap();
        let n = 10;
        let (mut whole, mut sliced, mut stopped) = (
            VecEnv::new(config, n, 5, 2).unwrap(),
            VecEnv::new(config, n, 5, 2).unwrap(),
            VecEnv::new(config, n, 5, 1).unwrap(),
        );
        let (mut a, mut b, mut c) = (Buffers::new(n, 2), Buffers::new(n, 2), Buffers::new(n, 2));
        whole.reset(5, a.out());
        sliced.reset(5, b.out());
        stopped.reset(5, c.out());
        let mut actions = vec![0i64; n];
        for step in 0..120 {
            whole.sample_actions(&mut actions);
            whole.step(&actions, a.out()).unwrap();
            sliced.prepare_step(&actions).unwrap();
            for lo in (0..n).step_by(3) {
                let hi = (lo + 3).min(n);
                let out = Outputs {
                    obs: &mut b.obs[lo * OBS_SIZE..hi * OBS_SIZE],
                    mask: &mut b.mask[lo * ACTION_COUNT..hi * ACTION_COUNT],
                    players: &mut b.players[lo..hi],
                    rewards: &mut b.rewards[lo * 2..hi * 2],
                    dones: &mut b.dones[lo..hi],
                };
                sliced.run_rows(lo..hi, out);
            }
            assert_eq!(
                (&a.obs, &a.mask, &a.players, &a.rewards, &a.dones),
                (&b.obs, &b.mask, &b.players, &b.rewards, &b.dones)
            );
            // Stopped after the envs before `cut` (their results dropped), the rest settled.
            stopped.prepare_step(&actions).unwrap();
            let cut = step % n;
            let out = Outputs {
                obs: &mut c.obs[..cut * OBS_SIZE],
                mask: &mut c.mask[..cut * ACTION_COUNT],
                players: &mut c.players[..cut],
                rewards: &mut c.rewards[..cut * 2],
                dones: &mut c.dones[..cut],
            };
            stopped.run_rows(0..cut, out);
            stopped.settle_rows(cut..n);
            for i in 0..n {
                assert_eq!(whole.game(i), stopped.game(i));
                assert_eq!(whole.episodes(i), stopped.episodes(i));
            }
            // Sampling reads the settled envs' legal actions afresh: the same actions.
            let (mut want, mut got) = (vec![0i64; n], vec![0i64; n]);
            stopped.envs.iter_mut().zip(&whole.envs).for_each(|(s, w)| s.sampler = w.sampler);
            whole.sample_actions(&mut want);
            stopped.sample_actions(&mut got);
            assert_eq!(want, got);
        }
        assert!(whole.episodes(0) + whole.episodes(1) > 0, "games finished on the way");
    }

    #[test]
    fn bad_actions_change_nothing() {
        let config = Config::standard(3).unwrap();
        let mut env = VecEnv::new(config, 2, 3, 1).unwrap();
        let mut b = Buffers::new(2, 3);
        env.reset(3, b.out());
        let before = (*env.game(0), *env.game(1));
        let mut actions = vec![0i64; 2];
        env.sample_actions(&mut actions);
        let good = actions[0];
        let e = env.step(&[good, ACTION_COUNT as i64], b.out()).unwrap_err();
        assert!(e.out_of_range && e.env == 1, "{e}");
        let e = env.step(&[good, crate::actions::KEEP_ACTION as i64], b.out()).unwrap_err();
        assert!(!e.out_of_range && e.env == 1 && e.message.contains("not legal"), "{e}");
        assert_eq!((*env.game(0), *env.game(1)), before);
    }

    #[test]
    fn the_compact_legal_list_is_the_mask() {
        let mut buf = Vec::new();
        let mut mask = vec![false; ACTION_COUNT];
        let mut listed = Vec::new();
        for config in
            [Config::standard(2).unwrap(), Config::new(Variant::Team, 4, SwapTiming::InsteadOfPlacement, true).unwrap()]
        {
            let mut g = Game::new(config, 2);
            let mut rng = Rng::new(2);
            while !g.is_over() {
                let mut legal = Legal::default();
                mask.fill(false);
                legal.read(&g, &mut mask);
                crate::actions::legal_actions(&g, &mut listed);
                let mut nth: Vec<u16> = (0..legal.count()).map(|k| legal.nth(k) as u16).collect();
                nth.sort_unstable();
                assert_eq!(nth, listed);
                assert_eq!(mask.iter().filter(|&&m| m).count(), listed.len());
                g.legal_moves(&mut buf);
                g.play_unchecked(&buf[rng.below(buf.len() as u32) as usize]);
            }
        }
    }

    #[test]
    fn solo_and_rank_returns() {
        let mut buf = Vec::new();
        let solo = Config::new(Variant::Solo, 1, SwapTiming::AfterPlacement, false).unwrap();
        let g = crate::sim::random_game(solo, 4, &mut buf);
        let low = *g.tracks().view(&solo, 0).iter().min().unwrap();
        assert_eq!(g.returns()[0], low as f64 / 36.0);
        let four = Config::standard(4).unwrap();
        let g = crate::sim::random_game(four, 4, &mut buf);
        let r = g.returns();
        let ranks = g.ranks();
        let worst = *ranks.iter().max().unwrap();
        for p in 0..4 {
            assert_eq!(r[p], 1.0 - 2.0 * ranks[p] as f64 / worst as f64);
        }
    }
}
