//! genial: a fast, faithful engine for Reiner Knizia's Ingenious.
//!
//! The pure core (no Python): geometry ([`hex`]), material ([`tiles`]), positions
//! ([`board`]), moves and notation ([`moves`]), rule variants ([`variants`]), turn flow
//! ([`game`]), bots ([`bots`]) and whole-game simulation ([`sim`]). The PyO3 bindings live
//! in `python/` behind the `python` feature.
//!
//! The core has no `unsafe` code, and the compiler holds it to that in every build without
//! the bindings (the tests' and the fuzzer's): the fuzzer runs without a sanitizer.
#![cfg_attr(not(feature = "python"), forbid(unsafe_code))]

pub mod actions;
pub mod board;
pub mod bots;
pub mod game;
pub mod hex;
pub mod moves;
pub mod observation;
pub mod rng;
pub mod sim;
pub mod tiles;
pub mod variants;
pub mod vecenv;

#[cfg(feature = "python")]
mod python;

pub use board::Board;
pub use game::{End, Game, MoveError, Phase, Report};
pub use hex::Cell;
pub use moves::{Move, Placement};
pub use tiles::{Color, Tile};
pub use variants::{Config, SwapTiming, Variant};

/// State invariants and the byte-driven game driver shared by the fuzzer and the tests.
pub mod invariants;
