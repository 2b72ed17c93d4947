//! Self-play data for fitting the evaluation (`training/fit_eval.py`): positions from games
//! between built-in bots, each with the feature rows of every seat as the seat to move sees
//! them, and how the game ended for every seat.

use super::eval::{all_features, win_shares, NF};
use super::{bot_seed, Bot, BotSpec};
use crate::game::{Game, Phase};
use crate::rng::{derive_seed, salt, Rng};
use crate::variants::Config;
use rayon::prelude::*;

/// Positions of one run: `features[i]` has a row per seat (rows past the player count are
/// zero), `outcome[i][p]` is seat `p`'s share of the win (ties split).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Positions {
    pub features: Vec<[[f64; NF]; 4]>,
    pub outcome: Vec<[f64; 4]>,
    /// Game number each position comes from (for splitting by game).
    pub game: Vec<u64>,
}

/// Plays games `first..first + count` of a self-play run: seat `s` of game `g` is played by
/// `bots[(g + s) % bots.len()]`, the deal comes from `derive_seed(seed, g)`. A position is
/// kept before each placement (bonus placements too) with probability `keep` (drawn from the game's own stream,
/// so the data do not depend on the number of threads).
pub fn self_play(
    config: Config,
    bots: &[BotSpec],
    seed: u64,
    first: u64,
    count: usize,
    keep: f64,
    threads: usize,
) -> Result<Positions, String> {
    if bots.is_empty() {
        return Err("self-play needs at least one bot".into());
    }
    for b in bots {
        b.validate()?;
    }
    if !(keep > 0.0 && keep <= 1.0) {
        return Err(format!("keep must be in (0, 1], not {keep}"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let parts: Vec<Positions> = pool.install(|| {
        (first..first + count as u64).into_par_iter().map(|g| one_game(config, bots, seed, g, keep)).collect()
    });
    let mut out = Positions::default();
    for p in parts {
        out.features.extend(p.features);
        out.outcome.extend(p.outcome);
        out.game.extend(p.game);
    }
    Ok(out)
}

fn one_game(config: Config, bots: &[BotSpec], seed: u64, g: u64, keep: f64) -> Positions {
    let game_seed = derive_seed(seed, g);
    let mut game = Game::new(config, game_seed);
    let n = config.players();
    let mut seats: Vec<_> = (0..n).map(|s| bots[(g as usize + s) % bots.len()].build(bot_seed(game_seed, s))).collect();
    let mut rng = Rng::new(game_seed ^ salt::SELF_PLAY_KEEP);
    let mut moves = Vec::new();
    let mut rows = Vec::new();
    while !game.is_over() {
        if game.phase() != Phase::SwapOffer && rng.unit() < keep {
            let mut f = [[0.0; NF]; 4];
            all_features(&game, game.current_player(), &mut f);
            rows.push(f);
        }
        let p = game.current_player();
        let mv = seats[p].choose_move(&game, &mut moves);
        game.play_unchecked(&mv);
    }
    let r = win_shares(&game);
    Positions { outcome: vec![r; rows.len()], game: vec![g; rows.len()], features: rows }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_do_not_depend_on_threads() {
        let cfg = Config::standard(3).unwrap();
        let bots = [BotSpec::Greedy, BotSpec::Scarcity];
        let a = self_play(cfg, &bots, 4, 0, 6, 0.5, 1).unwrap();
        let b = self_play(cfg, &bots, 4, 0, 6, 0.5, 2).unwrap();
        assert_eq!(a, b);
        assert!(!a.features.is_empty());
        for o in &a.outcome {
            assert!((o.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
        assert!(self_play(cfg, &[], 4, 0, 1, 0.5, 1).is_err());
    }
}
