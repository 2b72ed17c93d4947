//! Who makes the moves: the built-in bots, whole games played between them, and the
//! review of the moves people played, with what its shown chances mean.

pub mod bots;
pub mod calibration;
pub mod review;
pub mod sim;
pub mod stop;
