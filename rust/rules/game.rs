//! A game with turn flow: racks, bag, tracks, bonus placements, swaps and the end.
//!
//! `Game` is `Copy` and holds no heap memory, so search can clone it freely. `play` checks
//! a move and leaves the game untouched when it is illegal; `play_unchecked` is the fast
//! path for moves taken from `legal_moves`.

use crate::board::{Board, BoardError, EdgeMasks};
use crate::hex::Cell;
use crate::moves::{Move, Placement};
use crate::rng::Rng;
use crate::tiles::{full_set, Bag, Rack, Tile, ALL_COLORS, COLORS, TILE_COUNT};
use crate::variants::{Config, MarkerStep, SwapTiming, Tracks, Variant};
use std::fmt;

/// The most legal moves any position can have: every edge of the whole board (462) with
/// six different two-colour tiles in both orientations, plus `swap`.
pub const MAX_LEGAL_MOVES: usize = 462 * 12 + 1;

/// Which decision the player to move faces.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// The turn's placement.
    Place,
    /// A bonus placement ("Ingenious!").
    Bonus,
    /// After placing: take the offered swap (`Move::Swap`) or not (`Move::Keep`).
    SwapOffer,
    /// The game has ended.
    Over,
}

/// Why the game ended.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum End {
    /// No two adjacent free cells remain in the zone.
    BoardFull,
    /// The player to move had no legal placement (contact rule, or no tile left).
    NoPlacement,
    /// A seat (or its team) completed every track and won at once.
    ImmediateWin(u8),
}

impl Phase {
    /// Every phase, in the order of [`Phase::code`].
    pub const ALL: [Phase; 4] = [Phase::Place, Phase::Bonus, Phase::SwapOffer, Phase::Over];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Place => "place",
            Phase::Bonus => "bonus",
            Phase::SwapOffer => "swap_offer",
            Phase::Over => "over",
        }
    }

    /// Index of the phase in [`Phase::ALL`] (the observation's one-hot order).
    pub fn code(self) -> usize {
        self as usize
    }
}

impl End {
    /// Names of the end reasons, by [`End::code`].
    pub const NAMES: [&'static str; 3] = ["board_full", "no_placement", "immediate_win"];

    /// A small number for the reason (the winner of an immediate win is not part of it).
    pub fn code(self) -> u8 {
        match self {
            End::BoardFull => 0,
            End::NoPlacement => 1,
            End::ImmediateWin(_) => 2,
        }
    }

    pub fn name(self) -> &'static str {
        End::NAMES[self.code() as usize]
    }
}

/// Counters kept over a game.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, Debug)]
pub struct Stats {
    pub placements: u16,
    pub bonus_placements: u16,
    pub bonuses_lost: u16,
    pub swaps: u16,
    /// Turns played, the turn that ends the game included (a game ends in the middle of a
    /// turn: a placement that wins or fills the board); the turn of a seat that cannot place,
    /// which ends the game before it begins, is not one.
    pub turns: u16,
}

/// What one move did.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct PlayResult {
    pub player: u8,
    /// Points of the two halves `(a, b)` of a placement, before any cap.
    pub points: (u8, u8),
    /// Raw points per colour, before any cap.
    pub gains: [u8; COLORS],
    /// Bonus placements this placement earned.
    pub bonuses_earned: u8,
    /// This placement was itself a bonus placement.
    pub was_bonus: bool,
    /// Bonus placements lost because they could not be played.
    pub bonuses_lost: u8,
    pub swapped: bool,
    /// Tiles drawn by the mover when the turn ended (swaps included).
    pub drawn: u8,
}

/// What a placement would do for the player to move, without playing it.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct Preview {
    /// Points of the two halves `(a, b)`, before any cap.
    pub points: (u8, u8),
    /// Bonus placements it would earn.
    pub bonuses: u8,
    /// It would win the game at once.
    pub wins: bool,
    /// The mover's markers afterwards, as the mover sees them.
    pub scores_after: [i8; COLORS],
}

/// How one half of a placement scores: the lines it counts, by direction.
///
/// The books: "each of its symbols is then adjacent to 5 cells [...] These 5 adjacent
/// cells give the 5 directions to check to count the points", "1 point per identical
/// symbol adjacent" to yours "in a straight line and without interruption", and "the 2nd
/// symbol of a tile is not considered adjacent: you score no point in the direction of
/// the tile's 2nd symbol, even if both symbols of your tile are identical" (French
/// book, translated).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct HalfScore {
    pub cell: Cell,
    pub color: u8,
    /// The direction (0..6) of the tile's other half: never counted.
    pub toward_other: u8,
    /// The unbroken line of the half's colour in each direction, starting with the
    /// neighbour (0 toward the other half).
    pub lines: [u8; 6],
    /// The half's points: the sum of its lines.
    pub points: u8,
}

/// Why a placement scores what it does: each half's lines, each marker's move (caps and
/// bonuses), and what that does to the mover's markers.
///
/// The base game's books: "Each time one of your markers reaches column 18 of its track,
/// shout: 'Ingenious!' You automatically get a bonus turn and must *immediately* choose one
/// of your tiles, place it on the board and count the points it brings you. This can
/// bring further bonus turns." A marker "stays there until the end of the game, the points
/// in excess being lost" (French books, translated).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Explanation {
    pub player: u8,
    /// The halves in the placement's order (`a`, then `b`).
    pub halves: [HalfScore; 2],
    /// How each half moved its marker, in the order the halves were counted (a double on
    /// a double-length track is counted in the order that leaves the marker highest).
    pub steps: [MarkerStep; 2],
    /// Bonus placements earned ("Ingenious!").
    pub bonuses: u8,
    /// The placement wins the game at once.
    pub wins: bool,
    /// The mover's markers before and after, as the mover sees them.
    pub scores_before: [i8; COLORS],
    pub scores_after: [i8; COLORS],
}

impl Explanation {
    /// The preview of the same placement: a summary of the explanation.
    pub fn preview(&self) -> Preview {
        Preview {
            points: (self.halves[0].points, self.halves[1].points),
            bonuses: self.bonuses,
            wins: self.wins,
            scores_after: self.scores_after,
        }
    }
}

/// Why a swap is not open now.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SwapBlocked {
    Solo,
    /// Timing `after_placement`: the swap comes as an offer after the placement.
    AfterPlacement,
    BonusPending,
    EmptyRack,
    RackShowsLowest,
    NoMarkerOnNine,
    NothingToExchange,
    BagTooSmall {
        have: u8,
        need: u8,
    },
}

impl fmt::Display for SwapBlocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SwapBlocked::Solo => f.write_str("the solo game has no swap"),
            SwapBlocked::AfterPlacement => f.write_str("the swap is offered after your placement, not instead of it"),
            SwapBlocked::BonusPending => f.write_str("a bonus placement must be played"),
            SwapBlocked::EmptyRack => f.write_str("the rack is empty"),
            SwapBlocked::RackShowsLowest => f.write_str("a tile in the rack shows one of your lowest colours"),
            SwapBlocked::NoMarkerOnNine => f.write_str("no marker stands on your 9"),
            SwapBlocked::NothingToExchange => {
                f.write_str("no tile in the rack shows a colour whose marker stands on your 9")
            }
            SwapBlocked::BagTooSmall { have, need } => {
                write!(f, "the bag holds {have} tile(s), fewer than the {need} needed")
            }
        }
    }
}

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    GameOver,
    /// A placement while the swap decision is pending.
    SwapDecisionPending,
    /// `keep` when no swap was offered.
    NoSwapOffered,
    /// `swap` when the rules do not allow it now.
    SwapNotAllowed(SwapBlocked),
    Board(BoardError),
    TileNotInRack {
        player: u8,
        tile: Tile,
    },
    FirstPlacementMustTouchSymbol,
    MustTouch,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver => f.write_str("the game is over"),
            MoveError::SwapDecisionPending => {
                f.write_str("a swap was offered: play \"swap\" or \"keep\" before placing again")
            }
            MoveError::NoSwapOffered => f.write_str("\"keep\" answers a swap offer, and none is pending"),
            MoveError::SwapNotAllowed(why) => write!(f, "swap not allowed: {why}"),
            MoveError::Board(e) => e.fmt(f),
            MoveError::TileNotInRack { player, tile } => {
                write!(f, "player {player} has no {tile} tile in the rack")
            }
            MoveError::FirstPlacementMustTouchSymbol => {
                f.write_str("a player's first tile must touch a printed symbol that no tile touches yet")
            }
            MoveError::MustTouch => f.write_str("with require_contact, the tile must touch a tile or a printed symbol"),
        }
    }
}

impl From<BoardError> for MoveError {
    fn from(e: BoardError) -> Self {
        MoveError::Board(e)
    }
}

/// Errors in setting up a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Takes tile `t` out of `pool` (what is left of the game's tiles), for positions rebuilt
/// from listed facts: a tile listed more often than the game has it is refused by `what`.
fn take_from_set(pool: &mut Vec<Tile>, t: Tile, what: &str) -> Result<(), SetupError> {
    match pool.iter().position(|&x| x == t) {
        Some(i) => {
            pool.swap_remove(i);
            Ok(())
        }
        None => Err(SetupError(format!("{what}: the game has no further {t} tile"))),
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Game {
    config: Config,
    board: Board,
    racks: [Rack; 4],
    bag: Bag,
    rng: Rng,
    tracks: Tracks,
    current: u8,
    phase: Phase,
    pending_bonus: u8,
    /// Bit per seat: has placed a tile already (the first-placement rule is behind it).
    placed: u8,
    end: Option<End>,
    stats: Stats,
}

/// Appends the placements of the `count` edges of `edges` to `out`: for each edge, in
/// order, one fixed block of `B` moves (`B` is the number of colour pairs), its edge joined
/// with each colour pair of `pairs`. The moves come from an iterator of known length (a
/// range of `count` mapped to the next edge, then `flat_map` into arrays, the standard
/// library's `TrustedLen` path), so the vector reserves room for all of them once, and the
/// loop that writes them has no capacity check and keeps the length in a register.
#[inline(always)]
fn extend_blocks<const B: usize>(edges: &EdgeMasks, count: usize, pairs: &[u16; 12], out: &mut Vec<Move>) {
    // The low 16 bits of every colour word and edge word are known to be zero, where the
    // move's tag goes: a move is stored as `edge | colours`, with no masking.
    let block: [u64; B] = std::array::from_fn(|j| (pairs[j] as u64) << 48);
    let mut scan = edges.scan();
    out.extend((0..count).map(|_| scan.next_word()).flat_map(|edge| block.map(|c| Move::from_place_word(edge | c))));
}

/// The generator that mixes swapped tiles into the bag. Separate from the shuffle of the
/// deal, so that a game rebuilt from its initial draw order and seed has the same future.
fn swap_rng(seed: u64) -> Rng {
    Rng::new(seed ^ crate::rng::salt::SWAP_MIX)
}

/// Which extra condition a placement's cells must meet.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Touch {
    Any,
    UntouchedSymbol,
    Occupied,
}

impl Game {
    /// A new game, the bag shuffled from `seed`.
    pub fn new(config: Config, seed: u64) -> Game {
        let bag = Bag::shuffled(&mut Rng::new(seed));
        Game::start(config, bag, swap_rng(seed))
    }

    /// A new game whose tiles are drawn in the order given (all 120, first drawn first);
    /// `seed` drives the later mixing of swapped tiles into the bag.
    pub fn with_bag(config: Config, order: &[Tile], seed: u64) -> Result<Game, SetupError> {
        if order.len() != TILE_COUNT {
            return Err(SetupError(format!("a bag must list all {TILE_COUNT} tiles, this one lists {}", order.len())));
        }
        let mut want = full_set();
        let mut got = order.to_vec();
        want.sort_unstable();
        got.sort_unstable();
        if let Some(i) = (0..TILE_COUNT).find(|&i| want[i] != got[i]) {
            let t = got[i].min(want[i]);
            let have = got.iter().filter(|&&x| x == t).count();
            return Err(SetupError(format!(
                "a bag must hold the game's 120 tiles: it has {have} {t} tile(s), the game has {}",
                t.copies()
            )));
        }
        Ok(Game::start(config, Bag::from_draw_order(order), swap_rng(seed)))
    }

    fn start(config: Config, bag: Bag, rng: Rng) -> Game {
        let mut g = Game {
            config,
            board: Board::for_players(config.players()),
            racks: [Rack::default(); 4],
            bag,
            rng,
            tracks: Tracks::default(),
            current: 0,
            phase: Phase::Place,
            pending_bonus: 0,
            placed: 0,
            end: None,
            stats: Stats::default(),
        };
        for p in 0..config.players() {
            g.refill(p);
        }
        g.start_turn();
        g
    }

    // ----- queries -------------------------------------------------------------------

    #[inline]
    pub fn config(&self) -> &Config {
        &self.config
    }
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }
    #[inline]
    pub fn rack(&self, player: usize) -> &Rack {
        &self.racks[player]
    }
    #[inline]
    pub fn bag(&self) -> &Bag {
        &self.bag
    }
    #[inline]
    pub fn tracks(&self) -> &Tracks {
        &self.tracks
    }
    #[inline]
    pub fn current_player(&self) -> usize {
        self.current as usize
    }
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }
    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    #[inline]
    pub fn end(&self) -> Option<End> {
        self.end
    }
    #[inline]
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
    /// Bonus placements still owed to the player to move after the current one.
    #[inline]
    pub fn pending_bonuses(&self) -> usize {
        self.pending_bonus as usize
    }
    /// Whether `player` has placed a tile yet.
    #[inline]
    pub fn has_placed(&self, player: usize) -> bool {
        self.placed >> player & 1 == 1
    }

    /// Ranks of the seats (0 = first; ties share a rank).
    pub fn ranks(&self) -> [u8; 4] {
        self.tracks.ranks(&self.config)
    }

    /// Per-seat returns of a finished game (zeros while it runs): +1 for a (shared) first
    /// place, −1 for the last place, linear between, 0 for everyone when all tie (OpenSpiel's
    /// convention; team partners share their team's rank and so its return). Solo: the
    /// game's result, the lowest of the six scores, ÷ 36 (0..1).
    pub fn returns(&self) -> [f64; 4] {
        let mut out = [0.0; 4];
        if !self.is_over() {
            return out;
        }
        let n = self.config.players();
        if self.config.variant == Variant::Solo {
            out[0] = self.result_fraction(0);
            return out;
        }
        let ranks = self.ranks();
        let worst = *ranks[..n].iter().max().expect("at least one seat") as f64;
        if worst > 0.0 {
            for p in 0..n {
                out[p] = 1.0 - 2.0 * ranks[p] as f64 / worst;
            }
        }
        out
    }

    /// The lowest of a seat's six scores as it sees them: the solo game's result, and what
    /// the ranking of every other variant looks at first.
    pub fn result(&self, player: usize) -> i8 {
        *self.tracks.view(&self.config, player).iter().min().expect("six colours")
    }

    /// [`result`](Game::result) as a share of the track, 0..1: the solo game's return, and
    /// the value a search gives a solo position.
    pub fn result_fraction(&self, player: usize) -> f64 {
        self.result(player) as f64 / self.config.variant.track_max() as f64
    }

    /// The single best seat once the game is over (`None` while running or on a tie).
    /// In the team game this is the lower seat of the winning team.
    pub fn winner(&self) -> Option<usize> {
        if !self.is_over() {
            return None;
        }
        let ranks = self.ranks();
        let firsts: Vec<usize> = (0..self.config.players()).filter(|&p| ranks[p] == 0).collect();
        match (self.config.variant, firsts.as_slice()) {
            (_, [one]) => Some(*one),
            (Variant::Team, [a, _]) => Some(*a),
            _ => None,
        }
    }

    // ----- legal moves ---------------------------------------------------------------

    fn touch_rule(&self, player: usize) -> Touch {
        if !self.has_placed(player) {
            Touch::UntouchedSymbol
        } else if self.config.require_contact {
            Touch::Occupied
        } else {
            Touch::Any
        }
    }

    #[inline]
    fn cells_meet(&self, rule: Touch, a: Cell, b: Cell) -> bool {
        // Tested in the order they are met: callers skip `Any`, and most calls are first
        // placements.
        if rule == Touch::UntouchedSymbol {
            self.board.untouched_symbols_near(a) | self.board.untouched_symbols_near(b) != 0
        } else if rule == Touch::Occupied {
            self.board.touches_occupied(a) || self.board.touches_occupied(b)
        } else {
            true
        }
    }

    /// Whether `player` could place a tile now.
    pub fn has_legal_placement(&self, player: usize) -> bool {
        if self.racks[player].is_empty() || self.board.free_pairs() == 0 {
            return false;
        }
        // Without a touch rule every free pair is open, and there is one.
        self.touch_rule(player) == Touch::Any || !self.open_edges(player).is_empty()
    }

    /// Calls `f` for every legal placement of the player to move (distinct placements:
    /// identical tiles and the two orientations of a double count once).
    #[inline]
    pub fn for_each_placement(&self, mut f: impl FnMut(Placement)) {
        let player = self.current as usize;
        let mut kinds = [Tile::default(); 6];
        let n = self.racks[player].distinct(&mut kinds);
        let kinds = &kinds[..n];
        self.for_each_placement_cells(|a, b| {
            for t in kinds {
                let (x, y) = t.colors();
                f(Placement { a, b, ca: x, cb: y });
                if x != y {
                    f(Placement { a, b, ca: y, cb: x });
                }
            }
        });
    }

    /// Calls `f(a, b)` for every pair of cells (`a < b`, cells in row order) on which the
    /// player to move may lay a tile now: any tile of its rack, either way round, since
    /// where a tile may lie never depends on its colours. Nothing when the rack is empty.
    #[inline]
    pub fn for_each_placement_cells(&self, f: impl FnMut(Cell, Cell)) {
        let player = self.current as usize;
        if self.racks[player].is_empty() {
            return;
        }
        self.open_edges(player).for_each(f);
    }

    /// The legal moves of the player to move, written into `out` (cleared first).
    ///
    /// Order: placements by edge (cells in row order), then by rack tile (first
    /// appearance), lower colour on the lower cell first; then `swap` if open. With `out`
    /// reused, no allocation happens once it has grown to fit.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::Over => {}
            Phase::SwapOffer => {
                out.push(Move::Swap);
                out.push(Move::Keep);
            }
            Phase::Place | Phase::Bonus => {
                self.push_placements(out);
                if self.instead_swap_available() {
                    out.push(Move::Swap);
                }
            }
        }
    }

    /// The hot loop: one fixed block of moves per open edge (`write_blocks`;
    /// benches/results/HISTORY.md, "Fixed blocks per free edge").
    #[inline]
    fn push_placements(&self, out: &mut Vec<Move>) {
        let player = self.current as usize;
        // The colour pairs (a-half, b-half) the rack can put on an edge, as the colour part
        // of a placement's word (`Move::colors_word`).
        let mut pairs = [0u16; 12];
        let mut np = 0;
        let mut kinds = [Tile::default(); 6];
        let distinct = self.racks[player].distinct(&mut kinds);
        for t in &kinds[..distinct] {
            let (x, y) = t.colors();
            pairs[np] = (Move::colors_word(x, y) >> 48) as u16;
            np += 1;
            if x != y {
                pairs[np] = (Move::colors_word(y, x) >> 48) as u16;
                np += 1;
            }
        }
        if np == 0 {
            out.clear();
            return;
        }
        let edges = self.open_edges(player);
        // Without a touch rule every free pair is open: the board keeps their number.
        let count = if self.touch_rule(player) == Touch::Any { self.board.free_pairs() } else { edges.count() };
        debug_assert_eq!(count, edges.count());
        out.clear();
        match np {
            1 => extend_blocks::<1>(&edges, count, &pairs, out),
            2 => extend_blocks::<2>(&edges, count, &pairs, out),
            3 => extend_blocks::<3>(&edges, count, &pairs, out),
            4 => extend_blocks::<4>(&edges, count, &pairs, out),
            5 => extend_blocks::<5>(&edges, count, &pairs, out),
            6 => extend_blocks::<6>(&edges, count, &pairs, out),
            7 => extend_blocks::<7>(&edges, count, &pairs, out),
            8 => extend_blocks::<8>(&edges, count, &pairs, out),
            9 => extend_blocks::<9>(&edges, count, &pairs, out),
            10 => extend_blocks::<10>(&edges, count, &pairs, out),
            11 => extend_blocks::<11>(&edges, count, &pairs, out),
            _ => extend_blocks::<12>(&edges, count, &pairs, out),
        }
    }

    /// The edges the player may cover now, by its touch rule, as bit masks.
    #[inline]
    fn open_edges(&self, player: usize) -> EdgeMasks {
        match self.touch_rule(player) {
            Touch::Any => self.board.open_edges(),
            Touch::UntouchedSymbol => self.board.open_edges_by_untouched_symbol(),
            Touch::Occupied => self.board.open_edges_by_contact(),
        }
    }

    /// Number of legal moves, without listing them.
    pub fn legal_move_count(&self) -> usize {
        let mut n = 0;
        match self.phase {
            Phase::Over => {}
            Phase::SwapOffer => n = 2,
            Phase::Place | Phase::Bonus => {
                let player = self.current as usize;
                let mut kinds = [Tile::default(); 6];
                let distinct = self.racks[player].distinct(&mut kinds);
                let per_edge: usize =
                    kinds[..distinct].iter().map(|t| 1 + (t.colors().0 != t.colors().1) as usize).sum();
                if per_edge > 0 {
                    n = self.open_edges(player).count() * per_edge;
                }
                n += self.instead_swap_available() as usize;
            }
        }
        n
    }

    /// Whether the older edition's swap, taken instead of the turn's placement, is open now
    /// (never during a bonus placement).
    pub fn instead_swap_available(&self) -> bool {
        self.phase == Phase::Place
            && self.config.swap_timing == SwapTiming::InsteadOfPlacement
            && self.swap_check(self.current as usize).is_ok()
    }

    /// Tiles `player` would set aside by swapping now, or why the swap is not open.
    fn swap_check(&self, player: usize) -> Result<u8, SwapBlocked> {
        let rack = &self.racks[player];
        match self.config.variant {
            Variant::Solo => Err(SwapBlocked::Solo),
            Variant::Duel => {
                let colors = self.tracks.swap_colors(&self.config, player);
                if colors == 0 {
                    return Err(SwapBlocked::NoMarkerOnNine);
                }
                let k = rack.tiles().iter().filter(|t| t.mask() & colors != 0).count();
                if k == 0 {
                    return Err(SwapBlocked::NothingToExchange);
                }
                if self.bag.len() < k {
                    return Err(SwapBlocked::BagTooSmall { have: self.bag.len() as u8, need: k as u8 });
                }
                Ok(k as u8)
            }
            Variant::Standard | Variant::Team => {
                if rack.is_empty() {
                    return Err(SwapBlocked::EmptyRack);
                }
                // A rack that shows all six colours shows the lowest, whatever they are, so
                // the tracks are read only when one is missing (this runs every turn).
                let shown = rack.color_mask();
                if shown == ALL_COLORS || shown & self.tracks.swap_colors(&self.config, player) != 0 {
                    return Err(SwapBlocked::RackShowsLowest);
                }
                let need = self.config.rack_size();
                if self.bag.len() < need {
                    return Err(SwapBlocked::BagTooSmall { have: self.bag.len() as u8, need: need as u8 });
                }
                Ok(rack.len() as u8)
            }
        }
    }

    /// Checks a move without playing it.
    pub fn check(&self, mv: &Move) -> Result<(), MoveError> {
        let player = self.current as usize;
        match (self.phase, mv) {
            (Phase::Over, _) => Err(MoveError::GameOver),
            (Phase::SwapOffer, Move::Place(_)) => Err(MoveError::SwapDecisionPending),
            (Phase::SwapOffer, _) => Ok(()),
            (_, Move::Keep) => Err(MoveError::NoSwapOffered),
            (phase, Move::Swap) => {
                if self.config.swap_timing == SwapTiming::AfterPlacement {
                    return Err(MoveError::SwapNotAllowed(SwapBlocked::AfterPlacement));
                }
                if phase == Phase::Bonus {
                    return Err(MoveError::SwapNotAllowed(SwapBlocked::BonusPending));
                }
                self.swap_check(player).map(|_| ()).map_err(MoveError::SwapNotAllowed)
            }
            (_, Move::Place(p)) => {
                self.board.check_pair(p.a, p.b)?;
                if self.racks[player].find(p.tile()).is_none() {
                    return Err(MoveError::TileNotInRack { player: player as u8, tile: p.tile() });
                }
                match self.touch_rule(player) {
                    rule if self.cells_meet(rule, p.a, p.b) => Ok(()),
                    Touch::UntouchedSymbol => Err(MoveError::FirstPlacementMustTouchSymbol),
                    _ => Err(MoveError::MustTouch),
                }
            }
        }
    }

    /// What placement `p` (a legal placement of the player to move) would score: the same
    /// points, caps and bonuses as playing it, on copies of the tracks only.
    pub fn preview(&self, p: &Placement) -> Preview {
        self.explain(p).preview()
    }

    /// Why placement `p` (a legal placement of the player to move) scores what it does:
    /// the lines of each half ([`Board::half_lines`], whose sums are the points that
    /// playing it scores) and the markers' moves of [`Tracks::apply`], on copies only.
    pub fn explain(&self, p: &Placement) -> Explanation {
        let player = self.current as usize;
        let dir = p.a.direction_to(p.b).expect("a legal placement lies on neighbouring cells");
        let back = crate::hex::opposite(dir);
        let half = |cell: Cell, color: u8, skip: usize| {
            let lines = self.board.half_lines(cell, color, skip);
            HalfScore { cell, color, toward_other: skip as u8, lines, points: lines.iter().sum() }
        };
        let halves = [half(p.a, p.ca, dir), half(p.b, p.cb, back)];
        let mut tracks = self.tracks;
        let applied = tracks.apply(&self.config, player, [(p.ca, halves[0].points), (p.cb, halves[1].points)]);
        Explanation {
            player: player as u8,
            halves,
            steps: applied.steps,
            bonuses: applied.bonuses,
            wins: applied.won,
            scores_before: self.tracks.view(&self.config, player),
            scores_after: tracks.view(&self.config, player),
        }
    }

    // ----- playing ---------------------------------------------------------------------

    /// Plays a move after checking it; on error nothing changes.
    pub fn play(&mut self, mv: &Move) -> Result<PlayResult, MoveError> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move known to be legal (from `legal_moves`).
    pub fn play_unchecked(&mut self, mv: &Move) -> PlayResult {
        let mut report = PlayResult { player: self.current, ..PlayResult::default() };
        match *mv {
            Move::Place(p) => self.place(p, &mut report),
            Move::Swap => {
                self.swap(&mut report);
                self.finish_turn(&mut report);
            }
            Move::Keep => self.finish_turn(&mut report),
        }
        report
    }

    fn place(&mut self, p: Placement, report: &mut PlayResult) {
        let player = self.current as usize;
        let slot = self.racks[player].find(p.tile()).expect("tile checked to be in the rack");
        self.racks[player].remove(slot);
        let dir = p.a.direction_to(p.b).expect("cells checked to be adjacent");
        let (pa, pb) = self.board.placement_points(p.a, p.ca, p.b, p.cb, dir);
        self.board.place_unchecked(p.a, p.ca, p.b, p.cb);
        self.placed |= 1 << player;
        report.points = (pa, pb);
        report.gains[p.ca as usize] += pa;
        report.gains[p.cb as usize] += pb;
        report.was_bonus = self.phase == Phase::Bonus;
        self.stats.placements += 1;
        self.stats.bonus_placements += report.was_bonus as u16;

        let applied = self.tracks.advance(&self.config, player, [(p.ca, pa), (p.cb, pb)]);
        report.bonuses_earned = applied.bonuses;
        self.pending_bonus += applied.bonuses;
        if applied.won {
            self.finish(End::ImmediateWin(player as u8), report);
            return;
        }
        if self.board.free_pairs() == 0 {
            self.finish(End::BoardFull, report);
            return;
        }
        if self.pending_bonus > 0 {
            if self.has_legal_placement(player) {
                self.pending_bonus -= 1;
                self.phase = Phase::Bonus;
                return;
            }
            // Decision (RULES.md): a bonus that cannot be played is lost.
            self.lose_pending(report);
        }
        if self.config.swap_timing == SwapTiming::AfterPlacement && self.swap_check(player).is_ok() {
            self.phase = Phase::SwapOffer;
            return;
        }
        self.finish_turn(report);
    }

    fn lose_pending(&mut self, report: &mut PlayResult) {
        report.bonuses_lost += self.pending_bonus;
        self.stats.bonuses_lost += self.pending_bonus as u16;
        self.pending_bonus = 0;
    }

    fn finish(&mut self, end: End, report: &mut PlayResult) {
        self.lose_pending(report);
        self.stats.turns += 1; // the turn that ends the game is played too
        self.end = Some(end);
        self.phase = Phase::Over;
    }

    fn swap(&mut self, report: &mut PlayResult) {
        let player = self.current as usize;
        let colors = self.tracks.swap_colors(&self.config, player);
        let rack = &mut self.racks[player];
        let mut aside = [Tile::default(); 6];
        let mut n = 0;
        let mut slot = 0;
        while slot < rack.len() {
            let t = rack.tiles()[slot];
            // Base/team: the whole rack; duel: the tiles showing a colour on the mover's 9.
            if self.config.variant != Variant::Duel || t.mask() & colors != 0 {
                aside[n] = rack.remove(slot);
                n += 1;
            } else {
                slot += 1;
            }
        }
        let want = if self.config.variant == Variant::Duel { n } else { self.config.rack_size() };
        for _ in 0..want {
            let t = self.bag.draw().expect("swap checked against the bag size");
            self.racks[player].push(t);
        }
        self.bag.put_back(&aside[..n], &mut self.rng);
        report.swapped = true;
        report.drawn += want as u8;
        self.stats.swaps += 1;
    }

    fn refill(&mut self, player: usize) -> u8 {
        let mut n = 0;
        while self.racks[player].len() < self.config.rack_size() {
            match self.bag.draw() {
                Some(t) => {
                    self.racks[player].push(t);
                    n += 1;
                }
                None => break,
            }
        }
        n
    }

    fn finish_turn(&mut self, report: &mut PlayResult) {
        let player = self.current as usize;
        report.drawn += self.refill(player);
        self.stats.turns += 1;
        self.current = ((player + 1) % self.config.players()) as u8;
        self.phase = Phase::Place;
        self.start_turn();
    }

    fn start_turn(&mut self) {
        if self.board.free_pairs() == 0 {
            self.end = Some(End::BoardFull);
            self.phase = Phase::Over;
        } else if !self.has_legal_placement(self.current as usize) {
            self.end = Some(End::NoPlacement);
            self.phase = Phase::Over;
        }
    }

    // ----- hidden information -----------------------------------------------------------

    /// The tiles `observer` cannot see: the bag and the other seats' racks.
    pub fn unseen_tiles(&self, observer: usize) -> Vec<Tile> {
        let mut out: Vec<Tile> = self.bag.draw_order().collect();
        for p in 0..self.config.players() {
            if p != observer {
                out.extend_from_slice(self.racks[p].tiles());
            }
        }
        out
    }

    /// A copy in which everything `observer` cannot see (other racks, the bag's order, the
    /// mixing of future swaps) is dealt anew from `seed`, keeping every count. The result
    /// depends only on what `observer` sees and on `seed`: the unseen tiles are sorted
    /// before the shuffle, so how they truly lie cannot leak into a search.
    pub fn determinize(&self, observer: usize, seed: u64) -> Game {
        let mut g = *self;
        let mut rng = Rng::new(seed);
        let mut unseen = self.unseen_tiles(observer);
        unseen.sort_unstable();
        rng.shuffle(&mut unseen);
        let mut it = unseen.into_iter();
        for p in 0..self.config.players() {
            if p != observer {
                let n = g.racks[p].len();
                g.racks[p].clear();
                for t in it.by_ref().take(n) {
                    g.racks[p].push(t);
                }
            }
        }
        let rest: Vec<Tile> = it.collect();
        g.bag.refill(&rest);
        g.rng = rng;
        g
    }

    /// Like [`Game::determinize`], but the other seats' racks are the ones given (`racks[p]`
    /// for every `p != observer`, each as long as that seat's rack, together a part of the
    /// tiles `observer` cannot see); the rest of the unseen tiles make the bag, shuffled from
    /// `seed`. For a search that deals racks by how likely they are (`bots::inference`).
    /// `None` when the racks do not fit the unseen tiles.
    pub fn determinize_with(&self, observer: usize, racks: &[Rack; 4], seed: u64) -> Option<Game> {
        let mut g = *self;
        let mut rng = Rng::new(seed);
        let mut unseen = self.unseen_tiles(observer);
        unseen.sort_unstable();
        for p in (0..self.config.players()).filter(|&p| p != observer) {
            if racks[p].len() != self.racks[p].len() {
                return None;
            }
            for &t in racks[p].tiles() {
                let i = unseen.iter().position(|&x| x == t)?;
                unseen.remove(i);
            }
            g.racks[p] = racks[p];
        }
        rng.shuffle(&mut unseen);
        g.bag.refill(&unseen);
        g.rng = rng;
        Some(g)
    }

    /// A position set up by hand (the analysis board's editor): the tiles on the board, the
    /// markers of every track, the rack of `seat` (the seat to move, which places next) and
    /// the seed that deals the tiles nobody listed to the other racks (full, as far as the
    /// unseen tiles go) and the bag. Every fact is checked: the tiles lie on free cells of
    /// the zone, side by side; no tile is used more often than the game has it (board and
    /// rack together); a rack holds at most its size; markers lie on their track
    /// (`track_min..=track_max`) and no seat has every marker at the end already (that game
    /// would be over); the seat to move can place a tile. Seats count as having placed once
    /// the board holds a tile per seat. Duel tokens start unclaimed.
    pub fn from_setup(
        config: Config,
        tiles: &[Placement],
        tracks: &[[i8; COLORS]],
        seat: usize,
        rack: &[Tile],
        seed: u64,
    ) -> Result<Game, SetupError> {
        let err = |s: String| Err(SetupError(s));
        let n = config.players();
        if seat >= n {
            return err(format!("seat {seat} does not exist with {n} players"));
        }
        if rack.len() > config.rack_size() {
            return err(format!("a rack holds at most {} tiles, not {}", config.rack_size(), rack.len()));
        }
        if tracks.len() != config.track_count() {
            return err(format!("{n} players have {} tracks, not {}", config.track_count(), tracks.len()));
        }
        let (lo, hi) = (config.variant.track_min(), config.variant.track_max());
        for (t, values) in tracks.iter().enumerate() {
            if let Some(v) = values.iter().find(|&&v| v < lo || v > hi) {
                return err(format!("track {t}: a marker on {v} is off the track ({lo}..{hi})"));
            }
            if config.variant != Variant::Duel && values.iter().all(|&v| v == hi) {
                return err(format!("track {t}: every marker is on {hi} already, the game would be over"));
            }
        }
        let mut pool = full_set().to_vec();
        let mut take = |t: Tile, what: &str| take_from_set(&mut pool, t, what);
        let mut g = Game::start(config, Bag::from_draw_order(&[]), Rng::new(seed));
        for (i, p) in tiles.iter().enumerate() {
            let mv = Move::Place(*p);
            g.board.check_pair(p.a, p.b).map_err(|e| SetupError(format!("tile {i} ({mv}): {e}")))?;
            take(p.tile(), &format!("tile {i} ({mv})"))?;
            g.board.place_unchecked(p.a, p.ca, p.b, p.cb);
        }
        for &t in rack {
            take(t, "the rack")?;
        }
        for (t, values) in tracks.iter().enumerate() {
            g.tracks.values[t] = *values;
        }
        if tiles.len() >= n {
            g.placed = (1u8 << n) - 1;
        }
        g.stats.placements = tiles.len() as u16;
        pool.sort_unstable();
        let mut rng = Rng::new(seed);
        rng.shuffle(&mut pool);
        let mut it = pool.into_iter();
        for p in 0..n {
            if p == seat {
                rack.iter().for_each(|&t| g.racks[p].push(t));
            } else {
                it.by_ref().take(config.rack_size()).for_each(|t| g.racks[p].push(t));
            }
        }
        let rest: Vec<Tile> = it.collect();
        g.bag.refill(&rest);
        g.rng = rng;
        g.current = seat as u8;
        g.phase = Phase::Place;
        g.pending_bonus = 0;
        g.end = None;
        if rack.is_empty() || g.board.free_pairs() == 0 || !g.has_legal_placement(seat) {
            return err(format!("seat {seat} cannot place a tile of its rack in this position"));
        }
        Ok(g)
    }

    /// The game as one seat sees it, rebuilt from public facts alone: the moves played,
    /// each with the seat that played it, the `observer`'s own rack, every seat's rack size,
    /// and the decision `observer` now faces (`phase`, with `pending_bonus` bonus placements
    /// still to come after this one). What the seat cannot see is dealt from `seed`, as
    /// [`Game::determinize`] deals it. This is how an engine that hears the game through a
    /// text protocol gets a position it can search, without ever being told a hidden tile.
    ///
    /// The board and tracks are replayed move by move; the turn and bonus counters follow
    /// the seats of the moves (exact with two or more seats; a bonus lost for want of a
    /// placement is not visible in the moves, so `stats().bonuses_lost` stays 0). No bot
    /// reads these counters. Inconsistent facts are a [`SetupError`].
    #[allow(clippy::too_many_arguments)]
    pub fn from_public(
        config: Config,
        moves: &[(usize, Move)],
        observer: usize,
        rack: &[Tile],
        rack_sizes: &[usize],
        phase: Phase,
        pending_bonus: u8,
        seed: u64,
    ) -> Result<Game, SetupError> {
        let err = |s: String| Err(SetupError(s));
        let n = config.players();
        if observer >= n {
            return err(format!("seat {observer} does not exist with {n} players"));
        }
        if rack_sizes.len() != n {
            return err(format!("{n} players need {n} rack sizes, not {}", rack_sizes.len()));
        }
        if let Some(p) = (0..n).find(|&p| rack_sizes[p] > config.rack_size()) {
            return err(format!("seat {p} cannot hold {} tiles (a rack holds {})", rack_sizes[p], config.rack_size()));
        }
        if rack.len() != rack_sizes[observer] {
            return err(format!("the rack lists {} tiles, its size is given as {}", rack.len(), rack_sizes[observer]));
        }
        if matches!(phase, Phase::Over) {
            return err("a position to decide in is not over".to_string());
        }
        let mut pool = full_set().to_vec();
        let mut take = |t: Tile, what: &str| take_from_set(&mut pool, t, what);
        let mut g = Game::start(config, Bag::from_draw_order(&[]), Rng::new(seed));
        let mut last: Option<usize> = None;
        let mut last_placed = false;
        for (i, &(seat, mv)) in moves.iter().enumerate() {
            if seat >= n {
                return err(format!("move {i} ({mv}) is by seat {seat}, which does not exist"));
            }
            if last.is_some_and(|p| p != seat) {
                g.stats.turns += 1;
            }
            match mv {
                Move::Place(p) => {
                    let dir = g.board.check_pair(p.a, p.b).map_err(|e| SetupError(format!("move {i} ({mv}): {e}")))?;
                    take(p.tile(), &format!("move {i} ({mv})"))?;
                    let (pa, pb) = g.board.placement_points(p.a, p.ca, p.b, p.cb, dir);
                    g.board.place_unchecked(p.a, p.ca, p.b, p.cb);
                    g.tracks.advance(&config, seat, [(p.ca, pa), (p.cb, pb)]);
                    g.placed |= 1 << seat;
                    g.stats.placements += 1;
                    g.stats.bonus_placements += (last == Some(seat) && last_placed) as u16;
                    last_placed = true;
                }
                Move::Swap => {
                    g.stats.swaps += 1;
                    last_placed = false;
                }
                Move::Keep => last_placed = false,
            }
            last = Some(seat);
        }
        if last.is_some_and(|p| p != observer) {
            g.stats.turns += 1; // the turn that handed the move to `observer`
        }
        for &t in rack {
            take(t, "the rack")?;
        }
        let others: usize = (0..n).filter(|&p| p != observer).map(|p| rack_sizes[p]).sum();
        if others > pool.len() {
            return err(format!("the other racks hold {others} tiles, but only {} are unseen", pool.len()));
        }
        // The unseen tiles in a fixed order before the shuffle, as `determinize` deals them.
        pool.sort_unstable();
        let mut rng = Rng::new(seed);
        rng.shuffle(&mut pool);
        let mut it = pool.into_iter();
        for (p, &size) in rack_sizes.iter().enumerate() {
            if p == observer {
                rack.iter().for_each(|&t| g.racks[p].push(t));
            } else {
                it.by_ref().take(size).for_each(|t| g.racks[p].push(t));
            }
        }
        let rest: Vec<Tile> = it.collect();
        g.bag.refill(&rest);
        g.rng = rng;
        g.current = observer as u8;
        g.phase = phase;
        g.pending_bonus = pending_bonus;
        g.end = None;
        let open = match phase {
            Phase::SwapOffer => g.config.swap_timing == SwapTiming::AfterPlacement && g.swap_check(observer).is_ok(),
            _ => g.board.free_pairs() > 0 && g.has_legal_placement(observer),
        };
        if !open {
            return err(format!("seat {observer} has no {} decision to make in this position", phase.name()));
        }
        Ok(g)
    }

    /// Reseeds the generator that mixes swapped tiles into the bag.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Every tile is somewhere: board halves / 2 + racks + bag = 120.
    pub fn tile_total(&self) -> usize {
        let on_board = self
            .board
            .zone()
            .cells
            .iter()
            .filter(|&&c| self.board.get(c) < COLORS as u8 && !Board::is_symbol(c))
            .count();
        on_board / 2 + (0..self.config.players()).map(|p| self.racks[p].len()).sum::<usize>() + self.bag.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_set_up_by_hand_is_checked_and_dealt() {
        let cfg = Config::standard(2).unwrap();
        let real = {
            let mut g = Game::new(cfg, 8);
            let mut moves = Vec::new();
            let mut placed = Vec::new();
            while placed.len() < 6 {
                g.legal_moves(&mut moves);
                if let Move::Place(p) = moves[0] {
                    placed.push(p);
                }
                g.play(&moves[0]).unwrap();
            }
            (g, placed)
        };
        let (g, tiles) = real;
        let tracks = [g.tracks.values[0], g.tracks.values[1]];
        let seat = g.current_player();
        let rack = g.rack(seat).tiles().to_vec();
        let s = Game::from_setup(cfg, &tiles, &tracks, seat, &rack, 3).unwrap();
        assert_eq!(s.board, g.board);
        assert_eq!(s.tracks.values, g.tracks.values);
        assert_eq!(s.current_player(), seat);
        assert_eq!(s.rack(seat), g.rack(seat));
        assert_eq!(s.rack(1 - seat).len(), 6);
        assert_eq!(s.tile_total(), TILE_COUNT);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        s.legal_moves(&mut a);
        g.legal_moves(&mut b);
        assert_eq!(a, b);
        // Every inconsistency is refused with a message, never a panic.
        let bad = |t: &[Placement], tr: &[[i8; COLORS]], seat: usize, rack: &[Tile]| {
            Game::from_setup(cfg, t, tr, seat, rack, 1).unwrap_err().0
        };
        assert!(bad(&tiles, &tracks, 2, &rack).contains("seat 2 does not exist"));
        assert!(bad(&tiles, &tracks[..1], seat, &rack).contains("2 tracks"));
        let mut off = tracks;
        off[0][3] = 19;
        assert!(bad(&tiles, &off, seat, &rack).contains("off the track"));
        assert!(bad(&tiles, &[[18; COLORS], tracks[1]], seat, &rack).contains("would be over"));
        let twice = [tiles[0], tiles[0]];
        assert!(bad(&twice, &tracks, seat, &rack).contains("tile 1"));
        let seven = [rack.clone(), vec![rack[0]]].concat();
        assert!(bad(&tiles, &tracks, seat, &seven).contains("at most 6"));
        let cell = |q: i32, r: i32| Cell::new(q, r).unwrap();
        let outside = Placement::new(cell(7, 0), 0, cell(7, -1), 0);
        assert!(bad(&[outside], &tracks, seat, &rack).contains("tile 0"));
        // Five doubles of a colour are all the game has (four in the rack and two placed: too many).
        let rr = Tile::new(0, 0);
        let doubles = |q: i32| Placement::new(cell(q, 0), 0, cell(q, 1), 0);
        assert!(bad(&[doubles(-2), doubles(0)], &tracks, seat, &[rr; 4]).contains("no further"));
        assert!(bad(&tiles, &tracks, seat, &[]).contains("cannot place"));
    }

    #[test]
    fn determinize_depends_only_on_what_the_observer_sees() {
        let cfg = Config::standard(3).unwrap();
        let truth = Game::new(cfg, 5);
        // Another arrangement of the same hidden tiles, seen identically by seat 0.
        let other = truth.determinize(0, 99);
        assert_ne!(other, truth);
        assert_eq!(other.rack(0), truth.rack(0));
        assert_eq!(other.determinize(0, 7), truth.determinize(0, 7));
    }

    #[test]
    fn a_preview_says_what_playing_the_placement_does() {
        for config in Config::all() {
            let mut g = Game::new(config, 3);
            let mut moves = Vec::new();
            for step in 0..60 {
                if g.is_over() {
                    break;
                }
                g.legal_moves(&mut moves);
                for m in &moves {
                    if let Move::Place(p) = m {
                        let preview = g.preview(p);
                        let mover = g.current_player();
                        let mut after = g;
                        let report = after.play_unchecked(m);
                        assert_eq!(preview.points, report.points, "{config:?} {m}");
                        assert_eq!(preview.bonuses, report.bonuses_earned, "{config:?} {m}");
                        assert_eq!(preview.scores_after, after.tracks().view(&config, mover));
                        assert_eq!(preview.wins, matches!(after.end(), Some(End::ImmediateWin(_))));
                    }
                }
                let mv = moves[(step * 37) % moves.len()];
                g.play_unchecked(&mv);
            }
        }
    }

    #[test]
    fn an_explanation_adds_up_to_what_playing_the_placement_does() {
        for config in Config::all() {
            let mut g = Game::new(config, 8);
            let mut moves = Vec::new();
            for step in 0..80 {
                if g.is_over() {
                    break;
                }
                g.legal_moves(&mut moves);
                for m in &moves {
                    let Move::Place(p) = m else { continue };
                    let e = g.explain(p);
                    let mut after = g;
                    let report = after.play_unchecked(m);
                    assert_eq!((e.halves[0].points, e.halves[1].points), report.points);
                    for h in &e.halves {
                        assert_eq!(h.lines[h.toward_other as usize], 0);
                        // Each line, walked cell by cell.
                        for d in 0..6 {
                            let mut n = 0;
                            let mut at = h.cell.neighbour(d);
                            while let Some(c) =
                                at.filter(|&c| d != h.toward_other as usize && g.board().get(c) == h.color)
                            {
                                n += 1;
                                at = c.neighbour(d);
                            }
                            assert_eq!(h.lines[d], n, "{config:?} {m} direction {d}");
                        }
                    }
                    // The steps chain each colour's marker from before to after.
                    let mut scores = e.scores_before;
                    for s in &e.steps {
                        assert_eq!(s.from, scores[s.color as usize], "{config:?} {m}");
                        assert_eq!(s.points, e.halves[s.half as usize].points);
                        assert_eq!(s.from as i16 + s.points as i16 - s.lost as i16, s.to as i16);
                        assert!(s.to <= s.cap);
                        scores[s.color as usize] = s.to;
                    }
                    assert_eq!(scores, e.scores_after, "{config:?} {m}");
                    assert_eq!(e.steps[0].bonuses + e.steps[1].bonuses, report.bonuses_earned);
                }
                let mv = moves[(step * 53) % moves.len()];
                g.play_unchecked(&mv);
            }
        }
    }

    #[test]
    fn a_game_rebuilt_from_its_draw_order_is_identical() {
        let cfg = Config::standard(2).unwrap();
        let g = Game::new(cfg, 42);
        let mut order: Vec<Tile> = Vec::new();
        for p in 0..2 {
            order.extend_from_slice(g.rack(p).tiles());
        }
        order.extend(g.bag().draw_order());
        assert_eq!(Game::with_bag(cfg, &order, 42).unwrap(), g);
    }
}
