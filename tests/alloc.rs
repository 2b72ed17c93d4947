//! The hot loop allocates nothing: with the move buffer and the bots' buffers sized when they
//! are made, whole games perform no heap allocation at all (counted by a wrapping global
//! allocator).

use genial::bots::{Bot, GreedyBot, RandomBot};
use genial::{Config, Game};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // Per thread: the test harness's own threads allocate while a test runs. A `const`
    // initialiser without destructor needs no allocation itself.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    ALLOCATIONS.with(|c| c.set(c.get() + 1));
}

fn allocations() -> usize {
    ALLOCATIONS.with(|c| c.get())
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn decisions_allocate_nothing() {
    // The counter sees this thread's allocations (else the test below could not fail).
    let before = allocations();
    drop(std::hint::black_box(Vec::<u64>::with_capacity(16)));
    assert!(allocations() > before);
    // The zones' cell and edge lists are built once per process, on first use (which a new
    // game no longer makes: its board is a copy of a `const` one); not a decision's cost.
    genial::hex::zone(5);

    for players in [2, 3, 4] {
        let config = Config::standard(players).unwrap();
        let mut moves = Vec::with_capacity(genial::game::MAX_LEGAL_MOVES);
        let mut bots: Vec<Box<dyn Bot>> = vec![Box::new(RandomBot::new(1)), Box::new(GreedyBot::new(2))];
        for seed in 0..20 {
            let mut game = Game::new(config, seed);
            let before = allocations();
            let mut decisions = 0;
            while !game.is_over() {
                game.legal_moves(&mut moves);
                let i = bots[decisions % 2].choose(&game, &moves);
                game.play_unchecked(&moves[i]);
                decisions += 1;
            }
            let after = allocations();
            assert_eq!(after - before, 0, "{players}p seed {seed}: {decisions} decisions allocated");
        }
    }
}
