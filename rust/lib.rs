//! genial: a fast, faithful engine for Reiner Knizia's Ingenious.
//!
//! The crate is layered; each layer uses only the ones above it:
//!
//! - [`rules`]: the game itself, with no notion of players or Python.
//!   - [`hex`]: axial geometry, the padded cell grid, zones and edges.
//!   - [`rng`]: the portable seeded generator behind every shuffle.
//!   - [`tiles`]: colours, tiles, racks and the bag.
//!   - [`board`]: which colour each cell shows, free pairs, scoring a placement.
//!   - [`moves`]: placements, swap and keep, and their text notation.
//!   - [`variants`]: rule sets (variant, players, edition options), tracks, bonuses, ranking.
//!   - [`game`]: turn flow: legal moves, playing, bonus placements, swaps, the end.
//!   - [`record`]: a game with its start and moves: records, replay, undo.
//! - [`players`]: who makes the moves.
//!   - [`bots`]: the built-in bots.
//!   - [`sim`]: whole games between bots, and many of them over a thread pool.
//! - [`learning`]: the interface for learning agents.
//!   - [`actions`]: every decision as one integer, and legal-action masks.
//!   - [`observation`]: what one seat may see, as a vector of `f32`.
//!   - [`vecenv`]: many games stepped together.
//! - `python` (feature `python`): the PyO3 bindings, the private module `genial._core`.
//!
//! `build.rs` fails the build when a lower layer uses a higher one (`build/layers.rs`).
//!
//! Every module is also reachable from the crate root (`genial::game`, `genial::bots`, ...),
//! the paths the bindings, tests, benches and fuzz targets use.
//!
//! No `unsafe` code anywhere, the bindings included, and the compiler holds every build to
//! that: the fuzzer runs without a sanitizer, and the shipped extension has no block of its
//! own that could break memory safety (PyO3 and numpy's crates keep theirs).
#![forbid(unsafe_code)]

pub mod learning;
pub mod players;
pub mod rules;

pub use learning::{actions, observation, vecenv};
pub use players::{bots, calibration, review, sim, stop};
pub use rules::{board, game, hex, moves, record, rng, tiles, variants};

/// Consistency checks and a byte-driven game driver for the fuzzer and the tests; built
/// only for them (feature `invariants`), not shipped in the library.
#[cfg(any(test, feature = "invariants"))]
pub use rules::invariants;

#[cfg(feature = "python")]
mod python;

pub use board::Board;
pub use game::{End, Game, MoveError, Phase, PlayResult, Preview};
pub use hex::Cell;
pub use moves::{Move, Placement};
pub use record::Record;
pub use tiles::{Color, Tile};
pub use variants::{Config, SwapTiming, Variant};
