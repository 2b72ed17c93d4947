//! One test (or more) for every rule of `RULES.md`, through the public core
//! API. Long positions come from crafted games in `tests/data/rule_scenarios.json` (a full
//! draw order and every move), shared with the Python rule tests.

use genial::board::{Board, BoardError, SYMBOLS};
use genial::game::{End, MoveError, PlayResult};
use genial::hex::{zone, Cell};
use genial::rng::Rng;
use genial::tiles::{full_set, parse_color, Color, Tile};
use genial::variants::{Applied, Tracks};
use genial::{Config, Game, Move, Phase, Placement, SwapTiming, Variant};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;

const R: Color = 0;
const O: Color = 1;
const Y: Color = 2;
const G: Color = 3;
const B: Color = 4;
const P: Color = 5;

fn c(q: i32, r: i32) -> Cell {
    Cell::new(q, r).unwrap()
}

fn board(players: usize, cells: &[((i32, i32), Color)]) -> Board {
    let mut b = Board::for_players(players);
    for &((q, r), col) in cells {
        b.set(c(q, r), col).unwrap();
    }
    b
}

/// Points of the two halves of a tile put on `a` (colour `ca`) and `b` (colour `cb`).
fn points(b: &Board, a: (i32, i32), ca: Color, bb: (i32, i32), cb: Color) -> (u8, u8) {
    let (x, y) = (c(a.0, a.1), c(bb.0, bb.1));
    let dir = b.check_pair(x, y).unwrap();
    b.placement_points(x, ca, y, cb, dir)
}

fn tile(text: &str) -> Tile {
    let t: Vec<Color> = text.chars().map(|ch| parse_color(&ch.to_string()).unwrap()).collect();
    Tile::new(t[0], t[1])
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// A full draw order: the tiles given first, then the rest of the set in kind order.
fn bag(prefix: &[&str]) -> Vec<Tile> {
    let mut pool: Vec<Tile> = full_set().to_vec();
    let mut out = Vec::new();
    for t in prefix {
        let i = pool.iter().position(|&x| x == tile(t)).expect("tile left for the bag");
        out.push(pool.remove(i));
    }
    out.extend(pool);
    out
}

fn standard(players: usize) -> Config {
    Config::standard(players).unwrap()
}

fn cfg(v: Variant, players: usize, timing: SwapTiming, contact: bool) -> Config {
    Config::new(v, players, timing, contact).unwrap()
}

fn legal(g: &Game) -> Vec<Move> {
    let mut out = Vec::new();
    g.legal_moves(&mut out);
    out
}

fn neighbours(x: Cell) -> impl Iterator<Item = Cell> {
    (0..6).filter_map(move |d| x.neighbour(d))
}

// ----- material -----------------------------------------------------------------------------

#[test]
fn zones_per_player_count() {
    for (players, radius, cells) in [(1, 5, 91), (2, 5, 91), (3, 6, 127), (4, 7, 169)] {
        let b = Board::for_players(players);
        assert_eq!(b.radius(), radius);
        assert_eq!(b.zone().cells.len(), cells);
        assert!(b.zone().cells.iter().all(|x| x.distance() <= radius));
        assert_eq!(zone(radius).cells.len(), cells);
    }
    // Distance 6 is in play with three or more players, distance 7 only with four.
    assert!(!Board::for_players(2).in_zone(c(6, -1)));
    assert!(Board::for_players(3).in_zone(c(6, -1)));
    assert!(!Board::for_players(3).in_zone(c(7, -1)));
    assert!(Board::for_players(4).in_zone(c(7, -1)));
}

#[test]
fn printed_symbols_are_placed_as_the_rules_say_and_never_free() {
    let want = [((0, -5), R), ((5, -5), G), ((5, 0), B), ((0, 5), O), ((-5, 5), Y), ((-5, 0), P)];
    for players in 1..=4 {
        let mut b = Board::for_players(players);
        for &((q, r), col) in &want {
            assert_eq!(b.get(c(q, r)), col);
            assert!(!b.is_free(c(q, r)));
            assert_eq!(b.set(c(q, r), R), Err(BoardError::Occupied(c(q, r))));
            assert!(b.free_pair_list().all(|(x, y)| x != c(q, r) && y != c(q, r)));
        }
        let free = b.free_cells().count();
        assert_eq!(free, b.zone().cells.len() - 6);
    }
    assert_eq!(SYMBOLS.len(), 6);
}

#[test]
fn the_tile_set_has_120_tiles() {
    let set = full_set();
    assert_eq!(set.len(), 120);
    for a in 0..6u8 {
        for b2 in a..6u8 {
            let n = set.iter().filter(|&&t| t == Tile::new(a, b2)).count();
            assert_eq!(n, if a == b2 { 5 } else { 6 });
        }
    }
}

#[test]
fn setup_deals_six_each_in_seat_order_and_markers_start_at_0() {
    let mut order = full_set().to_vec();
    Rng::new(5).shuffle(&mut order);
    for config in [
        standard(2),
        standard(3),
        standard(4),
        cfg(Variant::Team, 4, SwapTiming::AfterPlacement, false),
        cfg(Variant::Duel, 2, SwapTiming::AfterPlacement, false),
        cfg(Variant::Solo, 1, SwapTiming::AfterPlacement, false),
    ] {
        let g = Game::with_bag(config, &order, 0).unwrap();
        let size = config.rack_size();
        for p in 0..config.players() {
            assert_eq!(g.rack(p).tiles(), &order[size * p..size * (p + 1)]);
        }
        assert_eq!(g.bag().len(), 120 - size * config.players());
        assert_eq!(*g.tracks(), Tracks::default(), "markers at 0, duel tokens in the supply");
        assert_eq!((g.current_player(), g.phase()), (0, Phase::Place));
    }
}

// ----- scoring: the books' worked examples -------------------------------------------------

#[test]
fn example_1_red_scores_nothing_blue_touches_the_printed_blue() {
    let b = Board::for_players(2);
    assert_eq!(points(&b, (3, 0), R, (4, 0), B), (0, 1));
}

#[test]
fn example_2_one_red_two_blues() {
    let b = board(2, &[((0, -1), R), ((0, 1), B), ((1, 1), B), ((-1, 0), Y), ((2, 0), G)]);
    assert_eq!(points(&b, (0, 0), R, (1, 0), B), (1, 2));
}

#[test]
fn example_3_double_blue_never_counts_its_own_other_half() {
    let mut b = board(2, &[((-1, 0), B), ((-1, 1), B), ((-2, 1), B), ((-2, 0), O), ((-2, 2), Y), ((-3, 1), R)]);
    assert_eq!(points(&b, (0, 0), B, (0, 1), B), (2, 2));
    // After the tile lies there, each half still skips the direction of the other half.
    let (up, low) = (c(0, 0), c(0, 1));
    let d = up.direction_to(low).unwrap();
    b.place_unchecked(up, B, low, B);
    assert_eq!(b.half_points(up, B, d), 2);
    assert_eq!(b.half_points(low, B, genial::hex::opposite(d)), 2);
    // Without the skip, each would see the other: 3 + 3, not the rule's 4.
    assert_eq!(b.half_points(up, B, 6) + b.half_points(low, B, 6), 6);
}

#[test]
fn example_4_lines_of_two_and_a_blue_off_the_line() {
    let b = board(2, &[((0, -1), R), ((0, -2), R), ((0, 1), B), ((-1, 2), B), ((1, 1), B), ((1, 2), B), ((0, 2), B)]);
    assert_eq!(points(&b, (0, 0), R, (1, 0), B), (2, 4));
}

#[test]
fn example_5_green_double_in_a_surrounded_gap_scores_7_and_5() {
    let b = board(
        2,
        &[
            ((1, -1), G),
            ((0, -1), G),
            ((-1, 0), G),
            ((-1, 1), G),
            ((0, 1), G),
            ((0, 2), G),
            ((0, 3), G),
            ((2, -1), G),
            ((2, 0), G),
            ((-1, 2), G),
            ((-2, 3), P),
            ((1, 1), Y),
            ((2, -2), R),
            ((0, -2), B),
            ((-2, 0), Y),
            ((0, 4), P),
            ((3, 0), O),
        ],
    );
    for n in neighbours(c(0, 0)).chain(neighbours(c(1, 0))) {
        assert!(!b.is_free(n) || n == c(0, 0) || n == c(1, 0), "gap surrounded by tiles");
    }
    assert_eq!(points(&b, (0, 0), G, (1, 0), G), (7, 5));
}

#[test]
fn printed_symbols_score_like_tiles_and_runs_stop_at_the_zone_edge() {
    let b = board(2, &[((0, -4), R)]);
    assert_eq!(points(&b, (0, -3), R, (0, -2), Y), (2, 0));
    let line = [((2, -1), G), ((3, -1), G), ((4, -1), G), ((5, -1), G)];
    assert_eq!(points(&board(2, &line), (1, -1), G, (1, 0), Y), (4, 0));
    let mut longer = line.to_vec();
    longer.extend([((6, -1), G), ((7, -1), G)]);
    assert_eq!(points(&board(4, &longer), (1, -1), G, (1, 0), Y), (6, 0));
}

#[test]
fn empty_cells_and_other_colours_end_a_run() {
    let b = board(2, &[((1, 0), B), ((3, 0), B), ((-1, 0), R), ((-2, 0), B), ((0, 1), B), ((0, 2), B)]);
    assert_eq!(points(&b, (0, 0), B, (0, -1), O), (3, 0));
}

// ----- tracks -------------------------------------------------------------------------------

/// Scores the halves one after another (each as a placement whose other half scores 0),
/// adding up the bonuses; `won` is that of the last.
fn score(t: &mut Tracks, config: &Config, player: usize, halves: &[(Color, u8)]) -> Applied {
    let mut out = Applied::default();
    for &(col, n) in halves {
        let a = t.apply(config, player, [(col, n), (col, 0)]);
        out.bonuses += a.bonuses;
        out.won = a.won;
    }
    out
}

#[test]
fn base_track_caps_at_18_and_each_colour_reaching_it_earns_a_bonus() {
    let c2 = standard(2);
    let mut t = Tracks::default();
    t.values[0] = [17, 16, 18, 5, 0, 0];
    let a = score(&mut t, &c2, 0, &[(R, 5), (O, 2), (Y, 4), (G, 1)]);
    assert_eq!(t.values[0], [18, 18, 18, 6, 0, 0], "excess lost, 18 stays 18");
    assert_eq!(a.bonuses, 2, "two colours reached 18 at once: two bonuses");
    assert!(!a.won);
    assert_eq!(t.values[1], [0; 6], "the other player's track is untouched");
    t.values[0] = [18, 18, 18, 18, 18, 12];
    let a = score(&mut t, &c2, 0, &[(P, 9)]);
    assert!(a.won && a.bonuses == 1);
}

#[test]
fn solo_track_stops_on_18_then_counts_on_to_36_without_bonus() {
    // The Polish book's example: green 16 + 2 and yellow 17 + 4 both stop on 18.
    let solo = cfg(Variant::Solo, 1, SwapTiming::AfterPlacement, false);
    let mut t = Tracks::default();
    t.values[0] = [0, 0, 17, 16, 18, 34];
    let a = score(&mut t, &solo, 0, &[(G, 2), (Y, 4), (B, 5), (P, 5)]);
    assert_eq!(t.values[0], [0, 0, 18, 18, 23, 36]);
    assert_eq!(a.bonuses, 0);
    t.values[0] = [36; 6];
    assert!(!score(&mut t, &solo, 0, &[(R, 1)]).won, "the solo game has no immediate win");
}

#[test]
fn team_track_bonus_at_18_and_at_36() {
    let team = cfg(Variant::Team, 4, SwapTiming::AfterPlacement, false);
    let mut t = Tracks::default();
    // The Polish book: in the team game, the solo example above gives two bonus placements.
    t.values[1] = [0, 0, 17, 16, 33, 20];
    let a = score(&mut t, &team, 3, &[(G, 2), (Y, 4), (B, 9), (P, 1)]);
    assert_eq!(t.values[1], [0, 0, 18, 18, 36, 21]);
    assert_eq!(a.bonuses, 3);
    assert_eq!(t.values[0], [0; 6], "seat 3 plays for team B (seats 1 and 3)");
    assert_eq!(t.view(&team, 1), t.view(&team, 3));
    let a = score(&mut t, &team, 1, &[(B, 4)]);
    assert_eq!((t.values[1][4], a.bonuses), (36, 0), "36 is the end of the track");
    t.values[0] = [36, 36, 36, 36, 36, 30];
    assert!(score(&mut t, &team, 2, &[(P, 6)]).won);
}

#[test]
fn duel_tug_of_war_tokens_and_bonuses() {
    let duel = cfg(Variant::Duel, 2, SwapTiming::AfterPlacement, false);
    let mut t = Tracks::default();
    t.values[0] = [7, -9, 0, 0, 0, 0];
    let a = score(&mut t, &duel, 0, &[(R, 5), (O, 3)]);
    assert_eq!(t.values[0][..2], [9, -6], "toward the scorer, stopping at the scorer's 9");
    assert_eq!((a.bonuses, t.tokens[R as usize]), (1, 0), "token from the supply, bonus");
    // Pulled back and pushed to 9 again while the token lies in front of seat 0: no bonus.
    score(&mut t, &duel, 1, &[(R, 2)]);
    assert_eq!(t.values[0][0], 7);
    let a = score(&mut t, &duel, 0, &[(R, 2)]);
    assert_eq!((a.bonuses, t.tokens[0]), (0, 0));
    // Seat 1 reaches its 9 in red: takes the token from seat 0 and earns a bonus.
    let a = score(&mut t, &duel, 1, &[(R, 30)]);
    assert_eq!((t.values[0][0], t.tokens[0], a.bonuses), (-9, 1, 1));
    assert_eq!(t.view(&duel, 1)[0], 9);
    // All six markers on one side wins at once (none needs to be at 9).
    t.values[0] = [1, 1, 1, 1, 1, -1];
    assert!(score(&mut t, &duel, 0, &[(P, 2)]).won);
    t.values[0] = [1, 1, 1, 1, 1, -1];
    assert!(!score(&mut t, &duel, 0, &[(P, 1)]).won, "a marker on 0 is on nobody's side");
}

#[test]
fn swap_colours_are_every_colour_tied_at_the_lowest() {
    let c2 = standard(2);
    let mut t = Tracks::default();
    t.values[0] = [3, 1, 1, 7, 1, 2];
    assert_eq!(t.swap_colors(&c2, 0), 0b010110);
    let team = cfg(Variant::Team, 4, SwapTiming::AfterPlacement, false);
    t.values[0] = [20, 19, 36, 19, 25, 30];
    assert_eq!(t.swap_colors(&team, 2), 0b001010, "the team's lowest colours");
    let duel = cfg(Variant::Duel, 2, SwapTiming::AfterPlacement, false);
    t.values[0] = [9, -9, 9, 0, 3, -9];
    assert_eq!(t.swap_colors(&duel, 0), 0b000101, "duel: the colours on your 9");
    assert_eq!(t.swap_colors(&duel, 1), 0b100010);
}

// ----- ranking ------------------------------------------------------------------------------

#[test]
fn ranking_follows_the_books_examples() {
    // French/Polish books: Lina's lowest is 10; Thomas and Sam tie at 9 and 12, and Thomas
    // has one marker at 12 where Sam has two; Alba's lowest is 7.
    let c4 = standard(4);
    let mut t = Tracks::default();
    t.values[0] = [10, 14, 15, 16, 17, 18]; // Lina
    t.values[1] = [12, 13, 17, 18, 9, 18]; // Thomas: blue 9, orange 12
    t.values[2] = [12, 15, 12, 14, 16, 9]; // Sam: purple 9, red and yellow 12
    t.values[3] = [18, 18, 18, 7, 18, 18]; // Alba: green 7
    assert_eq!(t.ranks(&c4), [0, 1, 2, 3]);
    // Older book (004): A and B tie at 9 and 12; B's next is 14 against A's 13: B wins.
    let c2 = standard(2);
    let mut t = Tracks::default();
    t.values[0] = [9, 12, 13, 15, 16, 18];
    t.values[1] = [9, 12, 14, 14, 15, 15];
    assert_eq!(t.ranks(&c2)[..2], [1, 0]);
    // Equal sorted lists share a rank, whatever the colours.
    t.values[0] = [9, 12, 14, 14, 15, 15];
    t.values[1] = [15, 14, 9, 15, 12, 14];
    assert_eq!(t.ranks(&c2)[..2], [0, 0]);
    let c3 = standard(3);
    t.values[2] = [0, 18, 18, 18, 18, 18];
    assert_eq!(t.ranks(&c3)[..3], [0, 0, 2]);
}

#[test]
fn duel_ranking_counts_markers_on_each_side_then_distances() {
    let duel = cfg(Variant::Duel, 2, SwapTiming::AfterPlacement, false);
    let mut t = Tracks::default();
    // The Polish book: two markers each (orange and purple on 0 count for nobody); lowest
    // 2 against 2, then 4 against 3: the first player wins.
    t.values[0] = [2, 0, -3, 4, -2, 0];
    assert_eq!(t.ranks(&duel)[..2], [0, 1]);
    // More markers on your side wins, however far they are.
    t.values[0] = [1, 1, 1, -9, -9, 0];
    assert_eq!(t.ranks(&duel)[..2], [0, 1]);
    // Same markers at the same distances: a draw.
    t.values[0] = [2, 0, -3, 3, -2, 0];
    assert_eq!(t.ranks(&duel)[..2], [0, 0]);
    t.values[0] = [0; 6];
    assert_eq!(t.ranks(&duel)[..2], [0, 0]);
}

#[test]
fn team_ranking_compares_team_tracks() {
    let team = cfg(Variant::Team, 4, SwapTiming::AfterPlacement, false);
    let mut t = Tracks::default();
    t.values[0] = [9, 12, 13, 20, 20, 20];
    t.values[1] = [9, 12, 12, 30, 30, 30];
    assert_eq!(t.ranks(&team), [0, 2, 0, 2]);
    t.values[1] = t.values[0];
    assert_eq!(t.ranks(&team), [0, 0, 0, 0]);
}

// ----- placing ------------------------------------------------------------------------------

fn untouched_symbol_near(b: &Board, x: Cell) -> bool {
    b.untouched_symbols_near(x) != 0
}

#[test]
fn first_placement_must_touch_a_printed_symbol_no_tile_touches_yet() {
    for players in 2..=4 {
        let mut g = Game::new(standard(players), 40 + players as u64);
        for seat in 0..players {
            let b = *g.board();
            let pairs: Vec<(Cell, Cell)> = b
                .free_pair_list()
                .filter(|&(x, y)| untouched_symbol_near(&b, x) || untouched_symbol_near(&b, y))
                .collect();
            let mut kinds = [Tile::default(); 6];
            let n = g.rack(seat).distinct(&mut kinds);
            let per_pair: usize = kinds[..n].iter().map(|t| if t.is_double() { 1 } else { 2 }).sum();
            let moves = legal(&g);
            assert_eq!(moves.len(), pairs.len() * per_pair);
            // Away from every symbol: refused with the reason.
            let t = g.rack(seat).tiles()[0];
            let far = Move::Place(Placement::new(c(0, 0), t.colors().0, c(1, 0), t.colors().1));
            assert_eq!(g.check(&far), Err(MoveError::FirstPlacementMustTouchSymbol));
            // Next to a symbol some tile already touches: refused too.
            let mut refused = 0;
            for (x, y) in b.free_pair_list() {
                let near_any = neighbours(x).chain(neighbours(y)).any(Board::is_symbol);
                if near_any && !untouched_symbol_near(&b, x) && !untouched_symbol_near(&b, y) {
                    let m = Move::Place(Placement::new(x, t.colors().0, y, t.colors().1));
                    assert_eq!(g.check(&m), Err(MoveError::FirstPlacementMustTouchSymbol));
                    refused += 1;
                }
            }
            assert!(seat == 0 || refused > 0);
            g.play(&moves[moves.len() / 2]).unwrap();
            if g.phase() == Phase::SwapOffer {
                g.play(&Move::Keep).unwrap();
            }
            assert_eq!(g.board().touched_symbols().count_ones() as usize, seat + 1);
        }
        // From the second turn: anywhere on two adjacent free cells.
        let moves = legal(&g);
        let mut kinds = [Tile::default(); 6];
        let n = g.rack(0).distinct(&mut kinds);
        let per_pair: usize = kinds[..n].iter().map(|t| if t.is_double() { 1 } else { 2 }).sum();
        assert_eq!(moves.len(), g.board().free_pairs() * per_pair);
    }
}

#[test]
fn placements_need_two_adjacent_free_cells_of_the_zone_and_a_tile_from_the_rack() {
    let mut g = Game::with_bag(standard(2), &bag(&["RR", "RR", "RR", "RR", "RR", "RO"]), 0).unwrap();
    let cases = [
        ("R0,-4+R2,-4", MoveError::Board(BoardError::NotAdjacent(c(0, -4), c(2, -4)))),
        ("R0,-5+R1,-5", MoveError::Board(BoardError::Occupied(c(0, -5)))),
        ("R-1,-5+R-1,-4", MoveError::Board(BoardError::OutsideZone(c(-1, -5)))),
        ("B0,-4+B1,-4", MoveError::TileNotInRack { player: 0, tile: tile("BB") }),
        ("keep", MoveError::NoSwapOffered),
    ];
    let before = g;
    for (text, err) in cases {
        // Move text names adjacent cells only: the distant pair is built as a value.
        let m = if text == "R0,-4+R2,-4" { Move::Place(Placement::new(c(0, -4), 0, c(2, -4), 0)) } else { mv(text) };
        assert_eq!(g.play(&m), Err(err), "{text}");
        assert_eq!(g, before, "a refused move changes nothing");
    }
    assert!("R0,-4+R2,-4".parse::<Move>().unwrap_err().0.contains("not adjacent"));
    assert!(matches!(g.check(&Move::Swap), Err(MoveError::SwapNotAllowed(_))));
    // Any orientation; identical tiles and the two ways of laying a double count once.
    let moves = legal(&g);
    let mut per_pair: HashMap<(Cell, Cell), usize> = HashMap::new();
    for m in &moves {
        if let Move::Place(p) = m {
            *per_pair.entry((p.a, p.b)).or_default() += 1;
        }
    }
    assert!(per_pair.values().all(|&n| n == 3), "RR once, RO both ways round");
    for text in ["R0,-4+O1,-4", "O0,-4+R1,-4", "R0,-4+R1,-4"] {
        assert!(moves.contains(&mv(text)), "{text}");
        let mut h = g;
        h.play(&mv(text)).unwrap();
    }
    assert_eq!(mv("R1,-4+R0,-4"), mv("R0,-4+R1,-4"));
}

#[test]
fn require_contact_every_later_tile_must_touch_a_tile_or_a_symbol() {
    let strict = cfg(Variant::Standard, 2, SwapTiming::AfterPlacement, true);
    let mut g = Game::new(strict, 8);
    let mut loose = Game::new(standard(2), 8);
    for _ in 0..2 {
        for h in [&mut g, &mut loose] {
            let m = legal(h)[0];
            h.play(&m).unwrap();
            if h.phase() == Phase::SwapOffer {
                h.play(&Move::Keep).unwrap();
            }
        }
    }
    assert_eq!(g.board(), loose.board());
    let t = g.rack(0).tiles()[0];
    let far = Move::Place(Placement::new(c(0, 0), t.colors().0, c(1, 0), t.colors().1));
    assert_eq!(g.check(&far), Err(MoveError::MustTouch));
    assert_eq!(loose.check(&far), Ok(()));
    let b = *g.board();
    let touching = b.free_pair_list().filter(|&(x, y)| b.touches_occupied(x) || b.touches_occupied(y)).count();
    let mut kinds = [Tile::default(); 6];
    let n = g.rack(0).distinct(&mut kinds);
    let per_pair: usize = kinds[..n].iter().map(|t| if t.is_double() { 1 } else { 2 }).sum();
    assert_eq!(g.legal_move_count(), touching * per_pair);
    assert!(touching < b.free_pairs());
}

// ----- swap ---------------------------------------------------------------------------------

#[test]
fn swap_after_placement_draws_the_next_six_then_returns_the_rack_and_ends_the_turn() {
    let order = bag(&["RB", "RR", "RR", "RR", "RR", "RR", "OY", "OY", "OY", "GP", "GP", "GP"]);
    let mut g = Game::with_bag(standard(2), &order, 7).unwrap();
    let r = g.play(&mv("R0,-4+B1,-4")).unwrap();
    assert_eq!(r.points, (1, 0));
    assert_eq!(g.phase(), Phase::SwapOffer, "lowest are O Y G B P, the rack shows only red");
    assert_eq!(legal(&g), vec![Move::Swap, Move::Keep]);
    assert_eq!(g.check(&mv("R0,0+R1,0")), Err(MoveError::SwapDecisionPending));
    let mut kept = g;
    let r = g.play(&Move::Swap).unwrap();
    assert!(r.swapped && r.drawn == 6);
    assert_eq!(g.rack(0).tiles(), &order[12..18], "the first six tiles of the remaining bag");
    let mut in_bag: Vec<Tile> = g.bag().draw_order().collect();
    let mut want: Vec<Tile> = order[18..].to_vec();
    want.extend([tile("RR"); 5]);
    in_bag.sort();
    want.sort();
    assert_eq!(in_bag, want, "the set-aside tiles are back in the bag");
    assert_eq!((g.current_player(), g.phase()), (1, Phase::Place), "the swap ends the turn");
    assert_eq!(g.tile_total(), 120);
    let r = kept.play(&Move::Keep).unwrap();
    assert!(!r.swapped && r.drawn == 1);
    assert_eq!(kept.rack(0).tiles()[5], order[12]);
    // The mixing uses the game's own seeded generator: same seed, same bag; not another.
    let again = {
        let mut h = Game::with_bag(standard(2), &order, 7).unwrap();
        h.play(&mv("R0,-4+B1,-4")).unwrap();
        h.play(&Move::Swap).unwrap();
        h
    };
    assert_eq!(again, g);
    let other = {
        let mut h = Game::with_bag(standard(2), &order, 8).unwrap();
        h.play(&mv("R0,-4+B1,-4")).unwrap();
        h.play(&Move::Swap).unwrap();
        h
    };
    assert_eq!(other.rack(0), g.rack(0));
    assert_ne!(other.bag().draw_order().collect::<Vec<_>>(), g.bag().draw_order().collect::<Vec<_>>());
}

#[test]
fn no_swap_while_a_tile_shows_a_tied_lowest_colour() {
    let mut g = Game::with_bag(standard(2), &bag(&["RB", "RR", "RR", "RR", "RR", "RO"]), 7).unwrap();
    let r = g.play(&mv("R0,-4+B1,-4")).unwrap();
    assert_eq!((g.phase(), g.current_player(), r.drawn), (Phase::Place, 1, 1));
}

fn timing_game(timing: SwapTiming) -> (Game, Vec<Tile>) {
    // Seat 0 scores red, then blue; then it holds only red and blue doubles, and the six
    // tiles a swap would bring show only red and blue too.
    let order = bag(&[
        "RB", "RB", "RR", "RR", "RR", "RR", "OY", "OY", "OY", "GP", "GP", "GP", "BB", "OO", "BB", "PP", "RB", "RB",
        "RB", "RB", "RR", "BB",
    ]);
    (Game::with_bag(cfg(Variant::Standard, 2, timing, false), &order, 3).unwrap(), order)
}

#[test]
fn swap_instead_of_placement_is_judged_on_the_full_rack_and_is_the_whole_turn() {
    let (mut g, order) = timing_game(SwapTiming::InsteadOfPlacement);
    assert!(!legal(&g).contains(&Move::Swap));
    g.play(&mv("R0,-4+B1,-4")).unwrap();
    assert_eq!(g.phase(), Phase::Place, "no offer after placing with this timing");
    g.play(&mv("O-4,0+Y-4,-1")).unwrap();
    assert!(matches!(g.check(&Move::Swap), Err(MoveError::SwapNotAllowed(_))), "BB shows blue, a lowest colour");
    g.play(&mv("R3,0+B4,0")).unwrap();
    assert_eq!(g.tracks().values[0], [1, 0, 0, 0, 1, 0]);
    assert_eq!(g.phase(), Phase::Place);
    g.play(&mv("O-3,0+Y-3,-1")).unwrap();
    assert!(legal(&g).contains(&Move::Swap));
    let board = *g.board();
    let r = g.play(&Move::Swap).unwrap();
    assert!(r.swapped && r.drawn == 6);
    assert_eq!(*g.board(), board, "nothing placed");
    assert_eq!(g.rack(0).tiles(), &order[16..22]);
    assert_eq!(g.current_player(), 1);
    // Still no lowest colour in the new rack: at most one swap a turn; the next turn may swap.
    assert_eq!(g.rack(0).color_mask() & g.tracks().swap_colors(g.config(), 0), 0);
    g.play(&mv("O-2,0+Y-2,-1")).unwrap();
    assert_eq!(g.current_player(), 0);
    assert!(legal(&g).contains(&Move::Swap));
    // The same deal with the current timing offers the swap right after the second placement.
    let (mut h, _) = timing_game(SwapTiming::AfterPlacement);
    for text in ["R0,-4+B1,-4", "O-4,0+Y-4,-1"] {
        h.play(&mv(text)).unwrap();
    }
    assert!(matches!(h.check(&Move::Swap), Err(MoveError::SwapNotAllowed(_))));
    h.play(&mv("R3,0+B4,0")).unwrap();
    assert_eq!(h.phase(), Phase::SwapOffer);
}

// ----- crafted games shared with the Python tests -------------------------------------------

struct Scenario {
    config: Config,
    order: Vec<Tile>,
    seed: u64,
    moves: Vec<Move>,
}

fn scenarios() -> HashMap<String, Scenario> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/rule_scenarios.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let data: Value = serde_json::from_str(&text).unwrap();
    let mut out = HashMap::new();
    for s in data.as_array().unwrap() {
        let timing = SwapTiming::parse(s["swap_timing"].as_str().unwrap()).unwrap();
        let config = Config::new(
            Variant::parse(s["variant"].as_str().unwrap()).unwrap(),
            s["players"].as_u64().unwrap() as usize,
            timing,
            s["require_contact"].as_bool().unwrap(),
        )
        .unwrap();
        out.insert(
            s["name"].as_str().unwrap().to_string(),
            Scenario {
                config,
                order: s["bag"].as_array().unwrap().iter().map(|t| tile(t.as_str().unwrap())).collect(),
                seed: s["seed"].as_u64().unwrap(),
                moves: s["moves"].as_array().unwrap().iter().map(|m| mv(m.as_str().unwrap())).collect(),
            },
        );
    }
    out
}

/// Replays a scenario: every state (before each move, then the last) and every report.
fn replay(name: &str) -> (Vec<Game>, Vec<PlayResult>) {
    let all = scenarios();
    let s = &all[name];
    let mut g = Game::with_bag(s.config, &s.order, s.seed).unwrap();
    let mut states = vec![g];
    let mut reports = Vec::new();
    for (i, m) in s.moves.iter().enumerate() {
        assert!(legal(&g).contains(m), "{name} move {i} {m} is generated");
        reports.push(g.play(m).unwrap_or_else(|e| panic!("{name} move {i} {m}: {e}")));
        assert_eq!(g.tile_total(), 120);
        states.push(g);
    }
    (states, reports)
}

#[test]
fn bonus_placements_come_before_the_swap_decision_and_the_draw() {
    let (states, reports) = replay("immediate_win");
    let mut bonuses = 0;
    let mut offers_after_bonus = 0;
    for (i, r) in reports.iter().enumerate() {
        let (before, after) = (&states[i], &states[i + 1]);
        if r.bonuses_earned > 0 && !after.is_over() {
            bonuses += 1;
            assert_eq!((after.phase(), after.current_player()), (Phase::Bonus, r.player as usize));
            assert_eq!(r.drawn, 0);
            assert_eq!(after.rack(r.player as usize).len(), before.rack(r.player as usize).len() - 1);
            assert!(!legal(after).contains(&Move::Swap) && !legal(after).contains(&Move::Keep));
        }
        if before.phase() == Phase::Bonus && after.phase() == Phase::SwapOffer {
            offers_after_bonus += 1;
        }
        if r.was_bonus && r.bonuses_earned > 0 {
            assert_eq!(after.phase() == Phase::Bonus, !after.is_over(), "bonuses chain");
        }
    }
    assert!(bonuses >= 5 && offers_after_bonus >= 1);
}

#[test]
fn two_bonuses_at_once() {
    let (states, reports) = replay("two_bonuses");
    let i = reports.iter().position(|r| r.bonuses_earned == 2).expect("a double bonus");
    let (before, after) = (&states[i], &states[i + 1]);
    let p = reports[i].player as usize;
    let reached: Vec<usize> =
        (0..6).filter(|&k| before.tracks().values[p][k] < 18 && after.tracks().values[p][k] == 18).collect();
    assert_eq!(reached.len(), 2);
    assert_eq!((after.phase(), after.pending_bonuses()), (Phase::Bonus, 1));
    assert!(reports[i + 1].was_bonus && states[i + 2].current_player() == p);
}

#[test]
fn game_ends_when_the_board_has_no_free_pair_and_a_pending_bonus_is_lost() {
    let (states, reports) = replay("bonus_lost_at_end");
    let last = states.last().unwrap();
    let r = reports.last().unwrap();
    assert_eq!(last.end(), Some(End::BoardFull));
    assert_eq!(last.board().free_pairs(), 0);
    assert!(last.board().free_cells().count() > 0, "isolated free cells may remain");
    assert_eq!((r.bonuses_earned, r.bonuses_lost), (1, 1));
    assert_eq!(last.pending_bonuses(), 0);
    assert_eq!(last.legal_move_count(), 0);
    assert_eq!(last.check(&Move::Keep), Err(MoveError::GameOver));
    let chain = reports.windows(4).any(|w| w.iter().skip(1).all(|r| r.was_bonus && r.bonuses_earned > 0));
    assert!(chain, "three bonus placements in a row, each earning the next");
}

#[test]
fn all_six_at_18_wins_at_once_and_ranks_first() {
    let (states, _) = replay("immediate_win");
    let last = states.last().unwrap();
    assert_eq!(last.end(), Some(End::ImmediateWin(0)));
    assert_eq!(last.tracks().values[0], [18; 6]);
    assert!(last.board().free_pairs() > 0);
    assert_eq!((last.ranks()[0], last.winner()), (0, Some(0)));
    assert!(last.is_over());
}

#[test]
fn solo_scenario_stops_on_18_and_has_no_bonus_nor_swap() {
    let (states, reports) = replay("solo_track");
    let mut stopped = 0;
    for (i, r) in reports.iter().enumerate() {
        assert_eq!(r.bonuses_earned, 0);
        assert_ne!(states[i + 1].phase(), Phase::SwapOffer);
        assert_eq!(states[i + 1].rack(0).len(), 1);
        for k in 0..6 {
            let (old, new) = (states[i].tracks().values[0][k], states[i + 1].tracks().values[0][k]);
            if old < 18 && old as u8 + r.gains[k] > 18 {
                assert_eq!(new, 18);
                stopped += 1;
            }
        }
    }
    assert!(stopped >= 2);
}

/// The last placement of a scenario: (marker before, marker after, points of the halves,
/// its report), for a double of colour `k`.
fn last_double(name: &str) -> (i8, i8, (u8, u8), PlayResult) {
    let (states, reports) = replay(name);
    let r = *reports.last().unwrap();
    let before = &states[states.len() - 2];
    let k = r.gains.iter().position(|&x| x > 0).unwrap();
    assert_eq!(r.gains.iter().filter(|&&x| x > 0).count(), 1, "{name}: a double");
    let t = before.config().track_of(r.player as usize);
    (before.tracks().values[t][k], states.last().unwrap().tracks().values[t][k], r.points, r)
}

#[test]
fn solo_double_moves_its_marker_half_by_half() {
    // The books: "count each symbol separately, even if the tile shows two identical
    // symbols", in the order the player chooses. Blue on 16, halves 4 and 3: 3 first stops
    // on 18, then 4 more: 22 (adding them first would stop on 18).
    let (old, new, points, _) = last_double("solo_double_half_by_half");
    assert_eq!((old, points), (16, (4, 3)));
    assert_eq!(new, 22);
}

#[test]
fn solo_double_where_either_half_reaches_18_counts_the_larger_on_from_18() {
    let (old, new, (a, b), _) = last_double("solo_double_crossing");
    assert!(old < 18 && old as u8 + a.min(b) >= 18, "either half alone reaches 18");
    assert_eq!(new as u8, 18 + a.max(b));
}

#[test]
fn team_double_earns_its_bonus_and_counts_on_past_18() {
    // Green on 13, halves 5 and 1: 5 first reaches 18 (a bonus), then 1 more: 19.
    let (old, new, points, r) = last_double("team_double_half_by_half");
    assert_eq!((old, points), (13, (5, 1)));
    assert_eq!((new, r.bonuses_earned), (19, 1));
}

#[test]
fn team_scenario_bonus_at_18_and_36_team_swap_and_immediate_win() {
    let (states, reports) = replay("team_immediate_win");
    let (mut at18, mut at36) = (0, 0);
    for (i, r) in reports.iter().enumerate() {
        let t = r.player as usize % 2;
        let (old, new) = (states[i].tracks().values[t], states[i + 1].tracks().values[t]);
        let reached18 = (0..6).filter(|&k| old[k] < 18 && new[k] == 18).count();
        let reached36 = (0..6).filter(|&k| old[k] < 36 && new[k] == 36).count();
        at18 += reached18;
        at36 += reached36;
        assert_eq!(r.bonuses_earned as usize, reached18 + reached36);
        assert_eq!(states[i].tracks().values[1 - t], states[i + 1].tracks().values[1 - t]);
        if r.swapped {
            let lowest = states[i].tracks().swap_colors(states[i].config(), r.player as usize);
            assert_eq!(states[i].rack(r.player as usize).color_mask() & lowest, 0);
        }
    }
    assert!(at18 >= 3 && at36 >= 3);
    let last = states.last().unwrap();
    assert!(matches!(last.end(), Some(End::ImmediateWin(0 | 2))));
    assert_eq!(last.tracks().values[0], [36; 6]);
    assert_eq!(last.ranks(), [0, 2, 0, 2]);
}

#[test]
fn duel_scenarios_tokens_swap_and_immediate_win() {
    let (states, reports) = replay("duel_tokens");
    let (mut supply, mut taken, mut again) = (0, 0, 0);
    for (i, r) in reports.iter().enumerate() {
        let p = r.player as usize;
        let (before, after) = (&states[i], &states[i + 1]);
        for k in 0..6 {
            if before.tracks().view(before.config(), p)[k] < 9 && after.tracks().view(after.config(), p)[k] == 9 {
                assert_eq!(after.tracks().tokens[k], p as i8);
                match before.tracks().tokens[k] {
                    -1 => supply += 1,
                    holder if holder as usize != p => taken += 1,
                    _ => {
                        again += 1;
                        assert_eq!(r.bonuses_earned, 0);
                    }
                }
            }
        }
    }
    assert!(supply >= 2 && taken >= 1 && again >= 1);

    let (states, reports) = replay("duel_swap");
    let i = reports.iter().position(|r| r.swapped).unwrap();
    let (before, after) = (&states[i], &states[i + 1]);
    let p = reports[i].player as usize;
    let nine = before.tracks().swap_colors(before.config(), p);
    let out = before.rack(p).tiles().iter().filter(|t| t.mask() & nine != 0).count();
    let kept: Vec<Tile> = before.rack(p).tiles().iter().copied().filter(|t| t.mask() & nine == 0).collect();
    assert!(out > 0 && !kept.is_empty());
    assert_eq!(&after.rack(p).tiles()[..kept.len()], &kept[..]);
    assert_eq!(reports[i].drawn as usize, out + 6 - before.rack(p).len());
    assert_eq!(after.bag().len(), before.bag().len() - (6 - before.rack(p).len()));

    let (states, _) = replay("duel_immediate_win");
    let last = states.last().unwrap();
    assert_eq!(last.end(), Some(End::ImmediateWin(0)));
    assert!(last.tracks().values[0].iter().all(|&v| v > 0));
    assert_eq!(last.winner(), Some(0));
}

// ----- every game ---------------------------------------------------------------------------

fn all_configs() -> Vec<Config> {
    Config::all()
}

fn random_text(rng: &mut Rng) -> String {
    if rng.below(10) == 0 {
        return if rng.below(2) == 0 { "swap".into() } else { "keep".into() };
    }
    let (q, r) = (rng.below(15) as i32 - 7, rng.below(15) as i32 - 7);
    let (dq, dr) = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1), (2, 0)][rng.below(7) as usize];
    let l = ['R', 'O', 'Y', 'G', 'B', 'P'];
    format!("{}{},{}+{}{},{}", l[rng.below(6) as usize], q, r, l[rng.below(6) as usize], q + dq, r + dr)
}

#[test]
fn random_games_end_follow_the_rules_and_refuse_illegal_moves() {
    let mut rng = Rng::new(2026);
    let mut buf = Vec::new();
    for config in all_configs() {
        for seed in 0..6 {
            let mut g = Game::new(config, seed);
            let mut steps = 0;
            while !g.is_over() {
                g.legal_moves(&mut buf);
                assert_eq!(buf.len(), g.legal_move_count());
                assert!(!buf.is_empty());
                // Every legal move passes the check and plays.
                for m in &buf {
                    assert_eq!(g.check(m), Ok(()), "{m}");
                }
                if steps % 7 == 0 {
                    for m in &buf {
                        let mut h = g;
                        h.play(m).unwrap();
                        assert_eq!(h.tile_total(), 120);
                    }
                }
                // Random moves not in the list are refused and change nothing.
                for _ in 0..20 {
                    if let Ok(m) = random_text(&mut rng).parse::<Move>() {
                        if !buf.contains(&m) {
                            let before = g;
                            assert!(g.play(&m).is_err(), "{m}");
                            assert_eq!(g, before);
                        }
                    }
                }
                let m = buf[rng.below(buf.len() as u32) as usize];
                let r = g.play(&m).unwrap();
                steps += 1;
                assert!(steps < 400);
                // Markers stay on their tracks.
                let top = config.variant.track_max();
                let low = if config.variant == Variant::Duel { -top } else { 0 };
                let tracks = config.variant.track_count(config.players());
                for t in &g.tracks().values[..tracks] {
                    assert!(t.iter().all(|&v| (low..=top).contains(&v)), "{t:?}");
                }
                assert_eq!(g.tile_total(), 120);
                if r.bonuses_earned > 0 && !g.is_over() {
                    assert_eq!(g.phase(), Phase::Bonus);
                }
            }
            assert!(matches!(g.end(), Some(End::BoardFull | End::ImmediateWin(_))));
            assert!(g.board().free_pairs() == 0 || matches!(g.end(), Some(End::ImmediateWin(_))));
            assert_eq!(g.legal_move_count(), 0);
            // Ranks: a seat's rank counts the seats strictly ahead of it.
            let ranks = g.ranks();
            for (a, &rank) in ranks.iter().enumerate().take(config.players()) {
                let ahead = (0..config.players())
                    .filter(|&b2| g.tracks().compare(&config, b2, a) == std::cmp::Ordering::Greater)
                    .count();
                assert_eq!(rank as usize, ahead);
            }
        }
    }
}
