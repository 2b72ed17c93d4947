//! Who makes the moves: the built-in bots, whole games played between them, and the
//! review of the moves people played.

pub mod bots;
pub mod review;
pub mod sim;
pub mod stop;
