//! The interface for learning agents: integer actions and masks, observations, and many
//! games stepped together.

pub mod actions;
pub mod observation;
pub mod vecenv;
