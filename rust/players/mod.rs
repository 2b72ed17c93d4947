//! Who makes the moves: the built-in bots, and whole games played between them.

pub mod bots;
pub mod sim;
pub mod stop;
