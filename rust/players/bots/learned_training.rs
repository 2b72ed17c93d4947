//! The self-play training of the `master` level's learned evaluation (`learned`), which
//! `training/master.py` calls ([`train`]): games between built-in bots, every position's
//! table entries as the mover sees them, learned from by Adam towards the games' results,
//! or, with searching teachers and `values`, towards each search's root value for the mover
//! (expert iteration's value target: the search's judgement of the position, with less of
//! the draw's luck in it than the result).

use super::catalogue::level;
use super::eval::win_shares;
use super::learned::{class, encode_all, win_probabilities_with, Active, Weights, CLASSES, DENSE, LEN};
use super::levels::LevelKind;
use super::{bot_seed, AnyBot, Bot, BotSpec, OnePlyConfig};
use crate::game::{Game, Phase};
use crate::rng::{derive_seed, Rng};
use crate::variants::Config;

/// How a training run plays and learns.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Games per player count, in rounds of `round` games (each round's positions are
    /// learned from once, then dropped: memory stays small).
    pub games: usize,
    pub round: usize,
    /// Held-out games per player count (other seeds), for the learning curve.
    pub holdout: usize,
    /// Chance that a position is kept for learning.
    pub keep: f64,
    /// Adam's step size.
    pub rate: f64,
    /// TD(λ) targets: 1 learns from the game's result only, less mixes in the model's own
    /// later predictions.
    pub lambda: f64,
    pub seed: u64,
    /// Player counts to train (each its own weight class).
    pub players: Vec<usize>,
    pub threads: usize,
    /// The bots whose games are learned from, rotated over the seats; empty: the one-ply
    /// mixture of [`teachers`].
    pub teachers: Vec<BotSpec>,
    /// Weights to start from (to go on learning from other games); `None`: from zero.
    pub start: Option<Weights>,
    /// Learn each searched decision's root value for the mover (the visit-weighted mean of
    /// its searched moves' values) instead of the game's result; positions a teacher did
    /// not search are not learned from. The teachers must all search.
    pub values: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            games: 20_000,
            round: 1_000,
            holdout: 400,
            keep: 0.5,
            rate: 0.003,
            lambda: 1.0,
            seed: 8_000_000,
            players: vec![2, 3, 4],
            threads: 1,
            teachers: Vec::new(),
            start: None,
            values: false,
        }
    }
}

impl TrainConfig {
    pub fn validate(&self) -> Result<(), String> {
        if self.games == 0 || self.round == 0 {
            return Err("games and round must be > 0".into());
        }
        if !(self.keep > 0.0 && self.keep <= 1.0) {
            return Err(format!("keep must be in (0, 1], not {}", self.keep));
        }
        if !(self.rate.is_finite() && self.rate > 0.0) {
            return Err(format!("rate must be a finite number > 0, not {}", self.rate));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(format!("lambda must be in [0, 1], not {}", self.lambda));
        }
        if self.players.is_empty() || self.players.iter().any(|p| !(2..=4).contains(p)) {
            return Err("players must list counts among 2, 3, 4".into());
        }
        if !(1..=crate::sim::MAX_THREADS).contains(&self.threads) {
            return Err(format!("threads must be 1..={}", crate::sim::MAX_THREADS));
        }
        for t in &self.teachers {
            t.validate()?;
        }
        if self.values && (self.teachers.is_empty() || !self.teachers.iter().all(gives_root_values)) {
            return Err("learning from root values needs teachers that all search (hard, expert, master)".into());
        }
        if let Some(w) = &self.start {
            if w.0.len() != CLASSES * LEN {
                return Err(format!("start weights must hold {} numbers, not {}", CLASSES * LEN, w.0.len()));
            }
        }
        Ok(())
    }
}

/// One point of the learning curve.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    pub players: usize,
    pub games: usize,
    /// Mean cross-entropy of the held-out positions' results (uniform guess: ln players).
    pub holdout_loss: f64,
}

/// The bots whose games the evaluation learns from (the same mixture as the fitted
/// evaluation's data: strong and weak one-ply players, with and without swaps).
fn teachers() -> Vec<BotSpec> {
    let lv = |n: &'static str, never: bool| match level(n).expect("a level") {
        LevelKind::OnePly(c) => BotSpec::Level(n, LevelKind::OnePly(OnePlyConfig { never_swap: never, ..c })),
        k => BotSpec::Level(n, k),
    };
    vec![lv("medium", false), BotSpec::Scarcity, BotSpec::Greedy, lv("easy", false), lv("medium", true)]
}

/// Whether a teacher is one of the levels' searches, whose analysis gives a root value to
/// learn from (`mcts` searches too, but keeps no analysis: `BotSpec::searches` is wider).
fn gives_root_values(b: &BotSpec) -> bool {
    matches!(b, BotSpec::Level(_, LevelKind::Search(_)))
}

/// Positions of one game: every seat's entries as the mover sees them, and the result.
/// With root values, each row's `(mover, value)`.
struct GameData {
    rows: Vec<[Active; 4]>,
    values: Vec<(usize, f64)>,
    result: [f64; 4],
}

/// The root value of the search that just chose among `moves` for its mover: the
/// visit-weighted mean of its candidates' values (`None` when it did not search).
fn root_value(bot: &AnyBot, moves: usize) -> Option<f64> {
    let AnyBot::Search(b) = bot else { return None };
    // A decision of one legal move is not searched (`last_search` is then an earlier one's).
    let a = b.last_search().filter(|_| moves > 1)?;
    let total = a.candidates.iter().map(|c| c.visits).sum::<u32>();
    (total > 0).then(|| a.candidates.iter().map(|c| c.value * c.visits as f64).sum::<f64>() / total as f64)
}

/// Which positions a game keeps (each with chance `keep`), and whether they carry the
/// searches' root values.
#[derive(Copy, Clone, Debug)]
struct Sample {
    keep: f64,
    values: bool,
}

fn play_one(config: Config, bots: &[BotSpec], seed: u64, g: u64, sample: Sample) -> GameData {
    let game_seed = derive_seed(seed, g);
    let mut game = Game::new(config, game_seed);
    let n = config.players();
    let mut seats: Vec<_> = (0..n).map(|s| bots[(g as usize + s) % bots.len()].build(bot_seed(game_seed, s))).collect();
    let mut rng = Rng::new(game_seed ^ 0x5EED_7EA1);
    let mut moves = Vec::new();
    let mut rows = Vec::new();
    let mut row_values = Vec::new();
    while !game.is_over() {
        let p = game.current_player();
        // The position is encoded before the move; with values, kept once the search that
        // chose the move has given its root value.
        let row = (game.phase() != Phase::SwapOffer && rng.unit() < sample.keep).then(|| {
            let mut a = [Active::new(), Active::new(), Active::new(), Active::new()];
            encode_all(&game, p, &mut a);
            a
        });
        let mv = Bot::choose_move(&mut seats[p], &game, &mut moves);
        if let Some(a) = row {
            match (sample.values, root_value(&seats[p], moves.len())) {
                (false, _) => rows.push(a),
                (true, Some(v)) => {
                    rows.push(a);
                    row_values.push((p, v));
                }
                (true, None) => {}
            }
        }
        game.play_unchecked(&mv);
    }
    GameData { rows, values: row_values, result: win_shares(&game) }
}

fn games(
    config: Config,
    bots: &[BotSpec],
    seed: u64,
    first: u64,
    count: usize,
    sample: Sample,
    pool: &rayon::ThreadPool,
) -> Vec<GameData> {
    use rayon::prelude::*;
    pool.install(|| {
        (first..first + count as u64).into_par_iter().map(|g| play_one(config, bots, seed, g, sample)).collect()
    })
}

fn probabilities(act: &[Active; 4], w: &[f32], n: usize) -> [f64; 4] {
    let mut u = [f64::NEG_INFINITY; 4];
    for p in 0..n {
        u[p] = act[p].utility(w);
    }
    let m = u[..n].iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut e = [0.0; 4];
    let s: f64 = (0..n).map(|p| (u[p] - m).exp()).sum();
    for p in 0..n {
        e[p] = (u[p] - m).exp() / s;
    }
    e
}

fn loss(data: &[GameData], w: &[f32], n: usize) -> f64 {
    let (mut sum, mut count) = (0.0, 0usize);
    for g in data {
        for row in &g.rows {
            let pr = probabilities(row, w, n);
            sum -= (0..n).map(|p| g.result[p] * pr[p].max(1e-12).ln()).sum::<f64>();
            count += 1;
        }
    }
    sum / count.max(1) as f64
}

/// Adam over the entries a sample reads (lazy: untouched weights keep their moments).
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: Vec<u32>,
    grad: Vec<f64>,
    touched: Vec<usize>,
    rate: f64,
}

impl Adam {
    fn new(rate: f64) -> Adam {
        Adam { m: vec![0.0; LEN], v: vec![0.0; LEN], t: vec![0; LEN], grad: vec![0.0; LEN], touched: Vec::new(), rate }
    }

    fn add(&mut self, i: usize, g: f64) {
        if self.grad[i] == 0.0 {
            self.touched.push(i);
        }
        self.grad[i] += g;
    }

    fn step(&mut self, w: &mut [f32]) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        for &i in &self.touched {
            let g = std::mem::take(&mut self.grad[i]);
            self.t[i] += 1;
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            let mh = self.m[i] / (1.0 - B1.powi(self.t[i] as i32));
            let vh = self.v[i] / (1.0 - B2.powi(self.t[i] as i32));
            w[i] -= (self.rate * mh / (vh.sqrt() + 1e-8)) as f32;
        }
        self.touched.clear();
    }
}

/// Learns from one game's positions, last first (so TD(λ) targets chain back from the result).
/// With root values, each position's target is its search's value `v` for the mover `m`,
/// the rest shared by the other seats as the model shares it now: the gradient of the
/// cross-entropy of the mover's probability alone, `-v ln p_m - (1 - v) ln(1 - p_m)`.
fn learn(game: &GameData, w: &mut [f32], adam: &mut Adam, n: usize, lambda: f64) {
    let mut target = game.result;
    for (r, row) in game.rows.iter().enumerate().rev() {
        let pr = probabilities(row, w, n);
        if let Some(&(m, v)) = game.values.get(r) {
            let rest = (1.0 - pr[m]).max(1e-9);
            for p in 0..n {
                target[p] = if p == m { v } else { (1.0 - v) * pr[p] / rest };
            }
        }
        for p in 0..n {
            let g = pr[p] - target[p];
            let a = &row[p];
            for k in 0..a.n {
                adam.add(a.idx[k] as usize, g * a.val[k] as f64);
            }
            for (i, x) in a.dense.iter().enumerate() {
                if *x != 0.0 {
                    adam.add(DENSE + i, g * x);
                }
            }
        }
        adam.step(w);
        if lambda < 1.0 && game.values.is_empty() {
            let now = probabilities(row, w, n);
            for p in 0..n {
                target[p] = lambda * target[p] + (1.0 - lambda) * now[p];
            }
        }
    }
}

/// Trains weights from zero by self-play (deterministic for a config, whatever the thread
/// count: games are played in parallel, learned from in order). Returns the weights and the
/// learning curve (held-out loss after every round, and before the first).
/// `progress` sees every point of the curve; returning `false` stops the run (an error).
pub fn train(
    tc: &TrainConfig,
    mut progress: impl FnMut(&CurvePoint) -> bool,
) -> Result<(Weights, Vec<CurvePoint>), String> {
    tc.validate()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(tc.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", tc.threads))?;
    let bots = if tc.teachers.is_empty() { teachers() } else { tc.teachers.clone() };
    let mut weights = tc.start.clone().unwrap_or_else(Weights::zeros);
    let mut curve = Vec::new();
    for &players in &tc.players {
        let config = Config::standard(players).map_err(|e| e.to_string())?;
        let k = class(&config);
        let w = &mut weights.0[k * LEN..(k + 1) * LEN];
        // Held-out games come from another seed stream than the training games.
        // The held-out loss is always against the results: curves stay comparable.
        let results = Sample { keep: tc.keep, values: false };
        let held = games(config, &bots, tc.seed ^ 0x0004_01D0, 0, tc.holdout, results, &pool);
        let point = CurvePoint { players, games: 0, holdout_loss: loss(&held, w, players) };
        if !progress(&point) {
            return Err("training stopped".into());
        }
        curve.push(point);
        let mut adam = Adam::new(tc.rate);
        let mut done = 0;
        while done < tc.games {
            let count = tc.round.min(tc.games - done);
            let sample = Sample { keep: tc.keep, values: tc.values };
            let data = games(config, &bots, tc.seed + players as u64, done as u64, count, sample, &pool);
            for g in &data {
                learn(g, w, &mut adam, players, tc.lambda);
            }
            done += count;
            let point = CurvePoint { players, games: done, holdout_loss: loss(&held, w, players) };
            if !progress(&point) {
                return Err("training stopped".into());
            }
            curve.push(point);
        }
    }
    Ok((weights, curve))
}

/// Share of games (ties split) that a one-ply player of `weights` (each legal move judged
/// by the evaluation of the position after it, on a deal of the hidden tiles sampled from
/// the mover's view) wins against `opponent`, 2 players, seats alternated: how well the
/// weights play on their own.
pub fn one_ply_share(weights: &Weights, opponent: &BotSpec, games: usize, seed: u64) -> f64 {
    let config = Config::standard(2).expect("two players");
    let mut moves = Vec::new();
    let mut won = 0.0;
    for g in 0..games as u64 {
        let game_seed = derive_seed(seed, g);
        let mut game = Game::new(config, game_seed);
        let mut other = opponent.build(bot_seed(game_seed, 1));
        let mut rng = Rng::new(game_seed ^ 0x000E_91A7);
        let me = (g % 2) as usize;
        while !game.is_over() {
            game.legal_moves(&mut moves);
            let mv = if game.current_player() == me {
                let deal = game.determinize(me, rng.next_u64());
                let mut best = (f64::NEG_INFINITY, 0);
                for (i, m) in moves.iter().enumerate() {
                    let mut next = deal;
                    next.play_unchecked(m);
                    // Ties at random, so that an untrained evaluation plays at random.
                    let v = win_probabilities_with(weights, &next, me)[me] + 1e-9 * rng.unit();
                    if v > best.0 {
                        best = (v, i);
                    }
                }
                moves[best.1]
            } else {
                moves[Bot::choose(&mut other, &game, &moves)]
            };
            game.play_unchecked(&mv);
        }
        won += win_shares(&game)[me];
    }
    won / games as f64
}

#[cfg(test)]
mod tests {
    use super::super::learned::shipped;
    use super::*;

    #[test]
    #[ignore = "slow (about 5 CPU-s): `make test` runs it, `make test-fast` does not"]
    fn a_tiny_trained_model_beats_its_untrained_start_against_greedy() {
        // 300 games of self-play for the 2-player class, a few seconds. The untrained
        // weights (all zero) play at random and lose every game to greedy (0 of 60 here);
        // the trained ones, one ply deep, win some (7 of 60 when written: a one-ply player
        // of any evaluation is about greedy's equal at best). Deterministic; if learning
        // broke, the trained share would fall to the untrained one's.
        let tc =
            TrainConfig { games: 300, round: 100, holdout: 20, players: vec![2], rate: 0.01, ..TrainConfig::default() };
        let (trained, _) = train(&tc, |_| true).unwrap();
        let untrained = one_ply_share(&Weights::zeros(), &BotSpec::Greedy, 60, 12);
        let learned = one_ply_share(&trained, &BotSpec::Greedy, 60, 12);
        assert!(learned >= untrained + 0.08, "trained {learned}, untrained {untrained}");
    }

    #[test]
    fn training_is_deterministic_and_lowers_the_held_out_loss() {
        let tc =
            TrainConfig { games: 60, round: 30, holdout: 20, players: vec![2], rate: 0.01, ..TrainConfig::default() };
        let (a, curve) = train(&tc, |_| true).unwrap();
        let (b, _) = train(&TrainConfig { threads: 2, ..tc.clone() }, |_| true).unwrap();
        assert_eq!(a, b);
        assert_eq!(curve.len(), 3);
        assert!((curve[0].holdout_loss - 2f64.ln()).abs() < 1e-9);
        assert!(curve[2].holdout_loss < curve[0].holdout_loss - 0.02, "{curve:?}");
        assert!(train(&TrainConfig { players: vec![5], ..tc }, |_| true).is_err());
    }

    /// A small search as the teacher: it keeps the tests quick (the pipeline's is `hard`).
    fn small_search() -> BotSpec {
        use super::super::SearchConfig;
        BotSpec::Level("search", LevelKind::Search(SearchConfig { iterations: 8, ..SearchConfig::default() }))
    }

    /// Four four-player games of `small_search`, from the shipped weights.
    fn searched_run() -> TrainConfig {
        TrainConfig {
            games: 4,
            round: 2,
            holdout: 2,
            players: vec![4],
            rate: 0.001,
            teachers: vec![small_search()],
            start: Some(shipped().clone()),
            ..TrainConfig::default()
        }
    }

    #[test]
    fn training_goes_on_from_given_weights_over_a_searching_teachers_games() {
        let tc = searched_run();
        let (w, curve) = train(&tc, |_| true).unwrap();
        // Started from the given weights (from zero, the loss before any game would be the
        // uniform guess's), and only the trained class moved.
        assert!((curve[0].holdout_loss - 4f64.ln()).abs() > 1e-3, "{curve:?}");
        let four = Config::standard(4).unwrap();
        let two = Config::standard(2).unwrap();
        assert_eq!(w.row(&two), shipped().row(&two));
        assert_ne!(w.row(&four), shipped().row(&four));
        // The teachers' games, not the one-ply mixture's: the held-out positions differ.
        let (_, one_ply) = train(&TrainConfig { teachers: Vec::new(), ..tc.clone() }, |_| true).unwrap();
        assert_ne!(one_ply[0].holdout_loss, curve[0].holdout_loss);
        assert_eq!(train(&tc, |_| true).unwrap().0, w);
        let short = TrainConfig { start: Some(Weights(vec![0.0; 3])), ..tc };
        assert!(train(&short, |_| true).unwrap_err().contains("start weights must hold"));
    }

    #[test]
    fn root_values_are_the_targets_when_asked_and_only_searches_give_them() {
        let teacher = small_search();
        let four = Config::standard(4).unwrap();
        // Each kept position of a searched game carries its mover and the search's value.
        let all = |values| Sample { keep: 1.0, values };
        let g = play_one(four, std::slice::from_ref(&teacher), 5, 0, all(true));
        assert_eq!(g.values.len(), g.rows.len());
        assert!(g.rows.len() > 20);
        assert!(g.values.iter().all(|&(m, v)| m < 4 && (0.0..=1.0).contains(&v)));
        // The values are the searches' own: they vary, unlike the one result of the game.
        let (lo, hi) = g.values.iter().fold((1.0f64, 0.0f64), |(lo, hi), &(_, v)| (lo.min(v), hi.max(v)));
        assert!(hi - lo > 0.1, "{lo}..{hi}");
        assert!(play_one(four, std::slice::from_ref(&teacher), 5, 0, all(false)).values.is_empty());

        let tc = searched_run();
        let (by_values, curve) = train(&TrainConfig { values: true, ..tc.clone() }, |_| true).unwrap();
        let (by_results, results_curve) = train(&tc, |_| true).unwrap();
        assert_ne!(by_values, by_results);
        // The same held-out positions, judged against their results either way.
        assert_eq!(curve[0], results_curve[0]);
        assert_eq!(train(&TrainConfig { values: true, threads: 2, ..tc.clone() }, |_| true).unwrap().0, by_values);
        // A teacher that does not search has no value to learn.
        let err = TrainConfig { values: true, teachers: vec![BotSpec::Greedy], ..tc.clone() }.validate().unwrap_err();
        assert!(err.contains("teachers that all search"), "{err}");
        assert!(TrainConfig { values: true, teachers: Vec::new(), ..tc }.validate().is_err());
    }
}
