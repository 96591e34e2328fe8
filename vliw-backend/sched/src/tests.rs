//! Unit tests of the scheduler.
