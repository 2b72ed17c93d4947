//! The rules of Ingenious, from geometry up to turn flow. Nothing here knows about players,
//! learning or Python.

pub mod board;
pub mod game;
pub mod hex;
#[cfg(any(test, feature = "invariants"))]
pub mod invariants;
pub mod moves;
pub mod record;
pub mod rng;
pub mod tiles;
pub mod variants;
