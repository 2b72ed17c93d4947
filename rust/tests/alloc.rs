//! The hot loop allocates nothing: whole games played with a reused move buffer perform no
//! heap allocation at all (counted by a wrapping global allocator).

use genial::bots::{Bot, GreedyBot, RandomBot};
use genial::{Config, Game};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn decisions_allocate_nothing() {
    for players in [2, 3, 4] {
        let config = Config::standard(players).unwrap();
        // Room for the largest move list of the whole board: 462 edges x 12 orientations + swap.
        let mut moves = Vec::with_capacity(462 * 12 + 1);
        let mut bots: Vec<Box<dyn Bot>> = vec![Box::new(RandomBot::new(1)), Box::new(GreedyBot::new(2))];
        for seed in 0..20 {
            let mut game = Game::new(config, seed);
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            let mut decisions = 0;
            while !game.is_over() {
                game.legal_moves(&mut moves);
                let i = bots[decisions % 2].choose(&game, &moves);
                game.play_unchecked(&moves[i]);
                decisions += 1;
            }
            let after = ALLOCATIONS.load(Ordering::Relaxed);
            assert_eq!(after - before, 0, "{players}p seed {seed}: {decisions} decisions allocated");
        }
    }
}
