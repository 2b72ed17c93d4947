//! Variants and edition options: which tracks exist, how points move markers, when bonuses
//! are earned, who may swap, and how the final ranking is made.

use crate::tiles::COLORS;
use std::cmp::Ordering;
use std::fmt;

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// Base game, 2–4 players, one track 0..18 per player.
    Standard,
    /// One player, no rack, one track 0..36, no bonus.
    Solo,
    /// Four players, seats 0+2 against 1+3, one track 0..36 per team.
    Team,
    /// Two players, one shared tug-of-war track −9..+9 per colour, duel tokens.
    Duel,
}

impl Variant {
    pub const ALL: [Variant; 4] = [Variant::Standard, Variant::Solo, Variant::Team, Variant::Duel];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Solo => "solo",
            Variant::Team => "team",
            Variant::Duel => "duel",
        }
    }

    pub fn parse(text: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == text)
    }

    /// Player counts the variant is played with.
    pub fn player_counts(self) -> &'static [usize] {
        match self {
            Variant::Standard => &[2, 3, 4],
            Variant::Solo => &[1],
            Variant::Team => &[4],
            Variant::Duel => &[2],
        }
    }

    /// Players when none is given: the variant's only (or smallest) player count.
    pub fn default_players(self) -> usize {
        self.player_counts()[0]
    }

    /// One line on how the variant plays.
    pub fn description(self) -> &'static str {
        match self {
            Variant::Standard => "Base game: a rack of six, a track 0..18 per player, bonus placements at 18.",
            Variant::Solo => {
                "One player places the tile just drawn; tracks 0..36, each half stopping on 18 on the way; \
                 the result is the lowest colour."
            }
            Variant::Team => "Seats 0+2 against 1+3, one track 0..36 per team, bonus placements at 18 and 36.",
            Variant::Duel => {
                "Two players pull shared markers -9..+9 toward themselves; duel tokens; most markers on your side wins."
            }
        }
    }

    /// Lowest value of a track as the engine stores it (the duel's track is signed).
    pub fn track_min(self) -> i8 {
        match self {
            Variant::Duel => -9,
            _ => 0,
        }
    }

    /// Highest value of a track, seen from its owner.
    pub fn track_max(self) -> i8 {
        match self {
            Variant::Standard => 18,
            Variant::Solo | Variant::Team => 36,
            Variant::Duel => 9,
        }
    }

    /// Number of separate tracks (one per player, per team, or one shared).
    pub fn track_count(self, players: usize) -> usize {
        match self {
            Variant::Standard => players,
            Variant::Solo | Variant::Duel => 1,
            Variant::Team => 2,
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum SwapTiming {
    /// Current books: after scoring and bonuses, before drawing.
    AfterPlacement,
    /// Older book (`002`): at the start of the turn, judged on the full rack; the whole turn.
    InsteadOfPlacement,
}

impl SwapTiming {
    pub fn name(self) -> &'static str {
        match self {
            SwapTiming::AfterPlacement => "after_placement",
            SwapTiming::InsteadOfPlacement => "instead_of_placement",
        }
    }

    pub fn parse(text: &str) -> Option<SwapTiming> {
        [SwapTiming::AfterPlacement, SwapTiming::InsteadOfPlacement].into_iter().find(|t| t.name() == text)
    }
}

/// A complete choice of rules for one game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Config {
    pub variant: Variant,
    pub players: u8,
    pub swap_timing: SwapTiming,
    pub require_contact: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One edition option of a rule set, as data. Every writer and reader of a rule set goes
/// through `RULE_OPTIONS`: the text form (`Config::to_text`, `Config::parse_text`), the Python
/// `Rules` and its keyword arguments, the command line's flags, and `Config::all`, hence
/// every test that walks the rule sets. So a new option is a field of `Config`, one entry
/// here, and its use where the rule applies; nothing else restates it.
pub struct RuleOption {
    pub name: &'static str,
    /// Its values as text. The first is the default: what a record written before the
    /// option existed means. An option with the values `false` and `true` is a flag.
    pub values: &'static [&'static str],
    /// What it does, in one line (the command line's help).
    pub help: &'static str,
    get: fn(&Config) -> usize,
    set: fn(&mut Config, usize),
}

impl RuleOption {
    pub fn default_value(&self) -> &'static str {
        self.values[0]
    }

    /// A yes/no option (`false` and `true`, either the default): a bool in Python, a switch
    /// on the command line.
    pub fn is_flag(&self) -> bool {
        self.values.len() == 2 && self.values.contains(&"false") && self.values.contains(&"true")
    }

    pub fn value_in(&self, config: &Config) -> &'static str {
        self.values[(self.get)(config)]
    }

    /// The position of the option's value in `values` (0: the default).
    pub fn index_in(&self, config: &Config) -> usize {
        (self.get)(config)
    }

    /// The error for a value outside `values`, naming them.
    fn unknown(&self, value: &str) -> ConfigError {
        ConfigError(format!("unknown {} {value:?}: choose {}", self.name, self.values.join(" or ")))
    }
}

/// The edition options, in the order the text form writes them.
pub const RULE_OPTIONS: &[RuleOption] = &[
    RuleOption {
        name: "swap_timing",
        values: &["after_placement", "instead_of_placement"],
        help: "when a swap happens: after the placement (the current books) or instead of it (the older book)",
        get: |c| c.swap_timing as usize,
        set: |c, i| c.swap_timing = [SwapTiming::AfterPlacement, SwapTiming::InsteadOfPlacement][i],
    },
    RuleOption {
        name: "require_contact",
        values: &["false", "true"],
        help: "every placement must touch a tile or a printed symbol (an older edition's option)",
        get: |c| c.require_contact as usize,
        set: |c, i| c.require_contact = i == 1,
    },
];

/// The keys of a rule set's text form besides the options, in the order it writes them.
pub const RULE_KEYS: [&str; 3] = ["version", "variant", "players"];

impl Config {
    /// The version of the text form `to_text` writes. A reader refuses a newer one (its
    /// options could mean what this build does not know) and reads an older one with the
    /// options it lacks at their defaults.
    pub const TEXT_VERSION: u32 = 1;

    pub fn new(
        variant: Variant,
        players: usize,
        swap_timing: SwapTiming,
        require_contact: bool,
    ) -> Result<Config, ConfigError> {
        let mut c = Config::of(variant, players)?;
        c.swap_timing = swap_timing;
        c.require_contact = require_contact;
        c.checked()
    }

    /// `variant` for `players`, every option at its default.
    pub fn of(variant: Variant, players: usize) -> Result<Config, ConfigError> {
        if !variant.player_counts().contains(&players) {
            return Err(ConfigError(format!(
                "the {} variant is played by {} player(s), not {}",
                variant.name(),
                join(variant.player_counts()),
                players
            )));
        }
        let mut c =
            Config { variant, players: players as u8, swap_timing: SwapTiming::AfterPlacement, require_contact: false };
        for o in RULE_OPTIONS {
            (o.set)(&mut c, 0);
        }
        Ok(c)
    }

    /// Refuses the combinations of variant and option that the books rule out.
    fn checked(self) -> Result<Config, ConfigError> {
        if self.variant == Variant::Solo && self.swap_timing != SwapTiming::AfterPlacement {
            return Err(ConfigError("the solo variant has no swap, so swap_timing does not apply".into()));
        }
        Ok(self)
    }

    /// This rule set with option `name` set to `value` (as text).
    pub fn with_option(self, name: &str, value: &str) -> Result<Config, ConfigError> {
        let option = RULE_OPTIONS.iter().find(|o| o.name == name).ok_or_else(|| unknown_key(name))?;
        let i = option.values.iter().position(|v| *v == value).ok_or_else(|| option.unknown(value))?;
        let mut c = self;
        (option.set)(&mut c, i);
        c.checked()
    }

    /// The value of option `name` as text, or `None` for a name that is no option.
    pub fn option(&self, name: &str) -> Option<&'static str> {
        RULE_OPTIONS.iter().find(|o| o.name == name).map(|o| o.value_in(self))
    }

    /// Every valid rule set: each variant and player count with each combination of the
    /// options' values.
    pub fn all() -> Vec<Config> {
        let mut out = Vec::new();
        for v in Variant::ALL {
            for &p in v.player_counts() {
                let mut combos = vec![Config::of(v, p).expect("a listed player count")];
                for o in RULE_OPTIONS {
                    combos = combos
                        .iter()
                        .flat_map(|c| {
                            (0..o.values.len()).map(move |i| {
                                let mut c = *c;
                                (o.set)(&mut c, i);
                                c
                            })
                        })
                        .collect();
                }
                out.extend(combos.into_iter().filter(|c| c.checked().is_ok()));
            }
        }
        out
    }

    /// The rule set as `key=value` pairs: `version`, `variant`, `players`, then each option.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![
            ("version", Config::TEXT_VERSION.to_string()),
            ("variant", self.variant.name().to_string()),
            ("players", self.players.to_string()),
        ];
        out.extend(RULE_OPTIONS.iter().map(|o| (o.name, o.value_in(self).to_string())));
        out
    }

    /// The one text form of a rule set, every key written:
    /// `version=1 variant=standard players=2 swap_timing=after_placement ...` (each option).
    /// Records, result metadata, the engine protocol, the server and caches store this.
    pub fn to_text(&self) -> String {
        let pairs: Vec<String> = self.pairs().into_iter().map(|(k, v)| format!("{k}={v}")).collect();
        pairs.join(" ")
    }

    /// Reads `key=value` pairs (the text form's, in any order). A missing `variant` is the
    /// standard game, missing `players` the variant's own count, a missing option its
    /// default; an unknown key, a key given twice, a newer version or a bad value is
    /// refused, named.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Config, ConfigError> {
        let mut seen: Vec<&str> = Vec::new();
        let (mut variant, mut players, mut options) = (Variant::Standard, None, Vec::new());
        for (key, value) in pairs {
            if seen.contains(&key) {
                return Err(ConfigError(format!("rule option {key:?} is given twice")));
            }
            match key {
                "version" => {
                    let v: u32 = value
                        .parse()
                        .map_err(|_| ConfigError(format!("rule set version must be a number, not {value:?}")))?;
                    if v == 0 || v > Config::TEXT_VERSION {
                        return Err(ConfigError(format!(
                            "rule set version {v} is not one this genial reads (1 to {}): a newer genial wrote it",
                            Config::TEXT_VERSION
                        )));
                    }
                }
                "variant" => {
                    variant = Variant::parse(value).ok_or_else(|| {
                        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
                        ConfigError(format!("unknown variant {value:?}: choose {}", names.join(", ")))
                    })?
                }
                "players" => {
                    let p = value.parse::<usize>().ok().filter(|p| (1..=4).contains(p));
                    players = Some(p.ok_or_else(|| ConfigError(format!("players must be 1 to 4, not {value:?}")))?);
                }
                _ if RULE_OPTIONS.iter().any(|o| o.name == key) => options.push((key, value)),
                _ => return Err(unknown_key(key)),
            }
            seen.push(key);
        }
        let mut config = Config::of(variant, players.unwrap_or(variant.default_players()))?;
        for (key, value) in options {
            config = config.with_option(key, value)?;
        }
        Ok(config)
    }

    /// Reads the text form: `key=value` pairs separated by spaces, in any order.
    pub fn parse_text(text: &str) -> Result<Config, ConfigError> {
        let mut pairs = Vec::new();
        for word in text.split_ascii_whitespace() {
            let pair = word.split_once('=').ok_or_else(|| {
                ConfigError(format!("a rule set is written as key=value pairs, and {word:?} is not one"))
            })?;
            pairs.push(pair);
        }
        Config::from_pairs(pairs)
    }

    /// The base game for `players` (2–4) with the current books' options.
    pub fn standard(players: usize) -> Result<Config, ConfigError> {
        Config::new(Variant::Standard, players, SwapTiming::AfterPlacement, false)
    }

    #[inline]
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// Tiles a player holds (the solo player holds just the tile drawn).
    #[inline]
    pub fn rack_size(&self) -> usize {
        if self.variant == Variant::Solo {
            1
        } else {
            6
        }
    }

    /// The track a seat scores on.
    #[inline]
    pub fn track_of(&self, player: usize) -> usize {
        match self.variant {
            Variant::Standard => player,
            Variant::Team => player % 2,
            Variant::Solo | Variant::Duel => 0,
        }
    }

    /// Number of tracks (per seat, per team, or one).
    #[inline]
    pub fn track_count(&self) -> usize {
        self.variant.track_count(self.players())
    }

    /// The team of a seat in the team game (0: seats 0 and 2, 1: seats 1 and 3).
    #[inline]
    pub fn team_of(&self, player: usize) -> Option<usize> {
        (self.variant == Variant::Team).then_some(player % 2)
    }

    /// The side a seat competes for: its team in the team game, else the seat itself.
    #[inline]
    pub fn side_of(&self, player: usize) -> usize {
        self.team_of(player).unwrap_or(player)
    }

    /// Number of competing sides: the two teams of the team game, else the seats.
    #[inline]
    pub fn sides(&self) -> usize {
        match self.variant {
            Variant::Team => 2,
            _ => self.players(),
        }
    }

    /// Whether a swap exists in this variant at all.
    #[inline]
    pub fn has_swap(&self) -> bool {
        self.variant != Variant::Solo
    }

    /// Whether reaching a track's goals earns bonus placements.
    #[inline]
    pub fn has_bonus(&self) -> bool {
        self.variant != Variant::Solo
    }
}

/// The error for a key that is neither one of `RULE_KEYS` nor an option, naming them all.
fn unknown_key(key: &str) -> ConfigError {
    let known: Vec<&str> = RULE_KEYS.iter().copied().chain(RULE_OPTIONS.iter().map(|o| o.name)).collect();
    ConfigError(format!("unknown rule option {key:?}: a rule set has {}", known.join(", ")))
}

impl fmt::Display for Config {
    /// The text form (`Config::to_text`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl std::str::FromStr for Config {
    type Err = ConfigError;
    fn from_str(text: &str) -> Result<Config, ConfigError> {
        Config::parse_text(text)
    }
}

fn join(xs: &[usize]) -> String {
    let v: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    v.join(" or ")
}

/// Score markers. `values[t][c]` is track `t`, colour `c`; for the duel, track 0 holds the
/// shared markers, positive toward seat 0. `tokens[c]` is the seat holding the duel token
/// of colour `c`, or -1 while it lies in the supply.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Tracks {
    pub values: [[i8; COLORS]; 4],
    pub tokens: [i8; COLORS],
}

impl Default for Tracks {
    fn default() -> Self {
        Tracks { values: [[0; COLORS]; 4], tokens: [-1; COLORS] }
    }
}

/// What a placement did to the tracks.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct Applied {
    /// Bonus placements earned.
    pub bonuses: u8,
    /// The mover has won at once.
    pub won: bool,
    /// How each half moved its marker, in the order the halves were counted.
    pub steps: [MarkerStep; 2],
}

/// Why reaching the end of a track earned no bonus placement.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub enum NoBonus {
    /// The marker did not reach a goal on this half (or it earned a bonus).
    #[default]
    NotReached,
    /// The variant has no bonus placement (solo).
    NotInVariant,
    /// Duel: the colour's token already lies in front of the mover.
    TokenHeld,
}

/// One half's move of its marker, in the mover's view (duel: the distance toward the
/// mover's 9).
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct MarkerStep {
    /// Which half: 0 for the placement's first cell, 1 for its second.
    pub half: u8,
    pub color: u8,
    /// The half's points.
    pub points: u8,
    pub from: i8,
    pub to: i8,
    /// Where the marker stops on this half: 18 (base; first goal of the long tracks),
    /// 36, or the duel's 9.
    pub cap: i8,
    /// Points beyond the cap, lost.
    pub lost: u8,
    /// Bonus placements this half earned.
    pub bonuses: u8,
    /// Why the half reached its cap without a bonus, if it did.
    pub no_bonus: NoBonus,
}

impl MarkerStep {
    fn new(half: u8, color: usize, points: u8, from: i8, to: i8, cap: i8, bonuses: u8) -> MarkerStep {
        let lost = (from as i16 + points as i16 - to as i16) as u8;
        MarkerStep { half, color: color as u8, points, from, to, cap, lost, bonuses, no_bonus: NoBonus::NotReached }
    }
}

impl Tracks {
    /// The markers of seat `player` as that seat sees them (duel: distance toward its 9,
    /// negative when the marker is on the opponent's side).
    pub fn view(&self, config: &Config, player: usize) -> [i8; COLORS] {
        let mut v = self.values[config.track_of(player)];
        if config.variant == Variant::Duel && player == 1 {
            for x in v.iter_mut() {
                *x = -*x;
            }
        }
        v
    }

    /// Moves the mover's markers by the two halves of one placement, each half given as
    /// `(colour, points)`.
    ///
    /// Every half moves its marker on its own. That only matters on the double-length
    /// tracks (solo, team), where a half that reaches 18 stops there and loses the rest of
    /// *its* points: the books let the player count the halves of a double in either order,
    /// and the engine takes the order that leaves the marker highest (it never costs a
    /// bonus, which depends only on the 18 and 36 being reached).
    pub fn apply(&mut self, config: &Config, player: usize, halves: [(u8, u8); 2]) -> Applied {
        self.apply_steps::<true>(config, player, halves)
    }

    /// [`Tracks::apply`] without the explanation: the same markers, bonuses and win, and
    /// `steps` left at their default. The play path, which nobody asks why.
    #[inline]
    pub fn advance(&mut self, config: &Config, player: usize, halves: [(u8, u8); 2]) -> Applied {
        self.apply_steps::<false>(config, player, halves)
    }

    /// Both of the above: `STEPS` says whether the steps are written (one body, so the
    /// play path and the explanation cannot move the markers differently).
    #[inline]
    fn apply_steps<const STEPS: bool>(&mut self, config: &Config, player: usize, halves: [(u8, u8); 2]) -> Applied {
        let mut out = Applied::default();
        let t = config.track_of(player);
        let [(ca, pa), (cb, pb)] = halves;
        let (ca, cb) = (ca as usize, cb as usize);
        match config.variant {
            Variant::Standard => {
                let track = &mut self.values[t];
                for (i, (c, p)) in [(ca, pa), (cb, pb)].into_iter().enumerate() {
                    let old = track[c];
                    let new = (old as i16 + p as i16).min(18) as i8;
                    let bonus = (old < 18 && new == 18) as u8;
                    out.bonuses += bonus;
                    if STEPS {
                        out.steps[i] = MarkerStep::new(i as u8, c, p, old, new, 18, bonus);
                    }
                    track[c] = new;
                }
                out.won = track.iter().all(|&v| v == 18);
            }
            Variant::Solo | Variant::Team => {
                let track = &mut self.values[t];
                // A double: both orders, keep the higher marker.
                let order = if ca == cb && climb_pair(track[ca], pb, pa).0 > climb_pair(track[ca], pa, pb).0 {
                    [1, 0]
                } else {
                    [0, 1]
                };
                let halves = [(ca, pa), (cb, pb)];
                for (k, &i) in order.iter().enumerate() {
                    let (c, p) = halves[i];
                    let old = track[c];
                    let (new, bonus) = climb_long((old, 0), p);
                    track[c] = new;
                    out.bonuses += bonus;
                    if STEPS {
                        let cap = if old < 18 { 18 } else { 36 };
                        out.steps[k] = MarkerStep::new(i as u8, c, p, old, new, cap, bonus);
                    }
                }
                if config.variant == Variant::Solo {
                    out.bonuses = 0;
                    if STEPS {
                        for s in out.steps.iter_mut() {
                            s.bonuses = 0;
                            if s.to == s.cap && s.from < s.cap {
                                s.no_bonus = NoBonus::NotInVariant;
                            }
                        }
                    }
                } else {
                    out.won = track.iter().all(|&v| v == 36);
                }
            }
            Variant::Duel => {
                let sign: i16 = if player == 0 { 1 } else { -1 };
                let track = &mut self.values[0];
                for (i, (c, p)) in [(ca, pa), (cb, pb)].into_iter().enumerate() {
                    let mine = track[c] as i16 * sign;
                    let new_mine = (mine + p as i16).min(9);
                    let mut step = MarkerStep::new(i as u8, c, p, mine as i8, new_mine as i8, 9, 0);
                    if p > 0 {
                        track[c] = (new_mine * sign) as i8;
                        if new_mine == 9 && mine < 9 {
                            if self.tokens[c] != player as i8 {
                                self.tokens[c] = player as i8;
                                out.bonuses += 1;
                                step.bonuses = 1;
                            } else {
                                step.no_bonus = NoBonus::TokenHeld;
                            }
                        }
                    }
                    if STEPS {
                        out.steps[i] = step;
                    }
                }
                out.won = track.iter().all(|&v| v as i16 * sign > 0);
            }
        }
        out
    }

    /// Colours a seat may swap away: the lowest of its track (base, team), or, in the
    /// duel, the colours whose marker stands on its 9.
    pub fn swap_colors(&self, config: &Config, player: usize) -> u8 {
        let v = self.view(config, player);
        let target = match config.variant {
            Variant::Duel => 9,
            _ => *v.iter().min().expect("six colours"),
        };
        (0..COLORS).filter(|&c| v[c] == target).fold(0, |m, c| m | 1 << c)
    }

    /// Ranks 0.. of each seat (0 = first; equal results share a rank).
    pub fn ranks(&self, config: &Config) -> [u8; 4] {
        let n = config.players();
        // Each seat's key once (a key sorts the six scores), not once per comparison.
        let keys: [RankKey; 4] = std::array::from_fn(|p| if p < n { self.rank_key(config, p) } else { RankKey::EMPTY });
        let mut ranks = [0u8; 4];
        for (p, rank) in ranks.iter_mut().enumerate().take(n) {
            *rank = keys[..n].iter().filter(|o| o.as_slice() > keys[p].as_slice()).count() as u8;
        }
        ranks
    }

    /// Compares the results of two seats (`Greater`: `a` did better).
    pub fn compare(&self, config: &Config, a: usize, b: usize) -> Ordering {
        self.rank_key(config, a).as_slice().cmp(self.rank_key(config, b).as_slice())
    }

    /// What the ranking compares for a seat, most significant first: the higher key wins
    /// at its first difference, equal keys share a rank. Base, solo and team: the six
    /// scores, lowest first (the books' tie-break). Duel: the number of markers on the
    /// seat's side, then their distances from 0, lowest first.
    pub fn rank_key(&self, config: &Config, player: usize) -> RankKey {
        let v = self.view(config, player);
        let mut key = RankKey::EMPTY;
        if config.variant == Variant::Duel {
            let mut mine = [0i8; COLORS];
            let mut n = 0;
            for &x in v.iter().filter(|&&x| x > 0) {
                mine[n] = x;
                n += 1;
            }
            mine[..n].sort_unstable();
            key.push(n as i8);
            mine[..n].iter().for_each(|&x| key.push(x));
        } else {
            let mut sorted = v;
            sorted.sort_unstable();
            sorted.iter().for_each(|&x| key.push(x));
        }
        key
    }
}

/// The values the ranking compares for one seat ([`Tracks::rank_key`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct RankKey {
    values: [i8; COLORS + 1],
    len: usize,
}

impl RankKey {
    const EMPTY: RankKey = RankKey { values: [0; COLORS + 1], len: 0 };

    fn push(&mut self, x: i8) {
        self.values[self.len] = x;
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[i8] {
        &self.values[..self.len]
    }
}

/// Both halves of a double on a double-length track, `first` counted first.
#[inline]
fn climb_pair(old: i8, first: u8, second: u8) -> (i8, u8) {
    climb_long(climb_long((old, 0), first), second)
}

/// One half's points on a double-length track (0..36): a marker below 18 stops on 18 and
/// the rest of the half is lost; from 18 on it counts toward 36. Carries the bonuses earned
/// (one for reaching 18, one for reaching 36).
#[inline]
fn climb_long((old, bonuses): (i8, u8), points: u8) -> (i8, u8) {
    let cap: i8 = if old < 18 { 18 } else { 36 };
    let new = (old as i16 + points as i16).min(cap as i16) as i8;
    (new, bonuses + (old < cap && new == cap) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(v: Variant, p: usize) -> Config {
        Config::new(v, p, SwapTiming::AfterPlacement, false).unwrap()
    }

    #[test]
    fn combinations_are_checked() {
        assert!(Config::new(Variant::Duel, 3, SwapTiming::AfterPlacement, false).is_err());
        assert!(Config::new(Variant::Team, 2, SwapTiming::AfterPlacement, false).is_err());
        assert!(Config::new(Variant::Standard, 1, SwapTiming::AfterPlacement, false).is_err());
        assert!(Config::new(Variant::Solo, 1, SwapTiming::InsteadOfPlacement, false).is_err());
    }

    #[test]
    fn every_rule_set_reads_back_from_its_text() {
        for c in Config::all() {
            let text = c.to_text();
            assert_eq!(Config::parse_text(&text), Ok(c), "{text}");
            assert_eq!(text.parse::<Config>(), Ok(c));
            // Every option is written, with its value.
            for o in RULE_OPTIONS {
                assert!(text.contains(&format!(" {}={}", o.name, o.value_in(&c))), "{text}");
            }
        }
        let c = Config::new(Variant::Standard, 3, SwapTiming::InsteadOfPlacement, true).unwrap();
        // A later option is written after these (the engine protocol's page promises it).
        let text = c.to_text();
        assert!(
            text.starts_with(
                "version=1 variant=standard players=3 swap_timing=instead_of_placement require_contact=true"
            ),
            "{text}"
        );
    }

    #[test]
    fn missing_keys_take_their_defaults_and_bad_ones_are_named() {
        assert_eq!(Config::parse_text(""), Config::standard(2));
        assert_eq!(Config::parse_text("variant=team"), Config::of(Variant::Team, 4));
        assert_eq!(
            Config::parse_text("players=3 require_contact=true"),
            Config::new(Variant::Standard, 3, SwapTiming::AfterPlacement, true)
        );
        let err = |t: &str| Config::parse_text(t).unwrap_err().0;
        assert!(err("no_such_option=false").contains("unknown rule option \"no_such_option\""));
        assert!(err("no_such_option=false").contains("require_contact"));
        assert!(err("players=2 players=3").contains("given twice"));
        assert!(err("version=2").contains("version 2"));
        assert!(err("version=x").contains("must be a number"));
        assert!(err("players=5").contains("1 to 4"));
        assert!(err("variant=chess").contains("unknown variant"));
        assert!(err("swap_timing=never").contains("after_placement or instead_of_placement"));
        assert!(err("require_contact=yes").contains("false or true"));
        assert!(err("players").contains("key=value"));
        assert!(err("variant=solo swap_timing=instead_of_placement").contains("solo variant has no swap"));
        assert!(err("variant=duel players=3").contains("not 3"));
    }

    #[test]
    fn options_are_set_and_read_by_name() {
        let c = Config::standard(2).unwrap();
        assert_eq!(c.option("swap_timing"), Some("after_placement"));
        assert_eq!(c.option("nothing"), None);
        let d = c.with_option("require_contact", "true").unwrap();
        assert!(d.require_contact && !c.require_contact);
        assert!(c.with_option("nothing", "true").is_err());
        for o in RULE_OPTIONS {
            assert_eq!(o.value_in(&c), o.default_value());
        }
    }

    #[test]
    fn advance_moves_the_markers_as_apply_does() {
        // Random halves on random tracks of every variant and seat: the same markers,
        // tokens, bonuses and win, only the steps left out.
        let mut rng = crate::rng::Rng::new(32);
        for (v, players) in
            [(Variant::Standard, 2), (Variant::Standard, 4), (Variant::Solo, 1), (Variant::Team, 4), (Variant::Duel, 2)]
        {
            let c = cfg(v, players);
            for _ in 0..20_000 {
                let mut t = Tracks::default();
                for track in t.values.iter_mut() {
                    for x in track.iter_mut() {
                        *x = match v {
                            Variant::Duel => rng.below(19) as i8 - 9,
                            Variant::Solo | Variant::Team => rng.below(37) as i8,
                            Variant::Standard => rng.below(19) as i8,
                        };
                    }
                }
                for x in t.tokens.iter_mut() {
                    *x = rng.below(3) as i8 - 1;
                }
                let player = rng.below(players as u32) as usize;
                let halves = [(rng.below(6) as u8, rng.below(11) as u8), (rng.below(6) as u8, rng.below(11) as u8)];
                let (mut a, mut b) = (t, t);
                let applied = a.apply(&c, player, halves);
                let advanced = b.advance(&c, player, halves);
                assert_eq!(a, b);
                assert_eq!(advanced, Applied { steps: Default::default(), ..applied });
            }
        }
    }

    // Colours by index: red 0, orange 1, yellow 2, green 3, blue 4, purple 5.
    #[test]
    fn standard_caps_and_bonuses() {
        let c = cfg(Variant::Standard, 2);
        let mut t = Tracks::default();
        t.values[0] = [17, 16, 0, 0, 0, 0];
        let a = t.apply(&c, 0, [(0, 5), (1, 2)]);
        assert_eq!(t.values[0], [18, 18, 0, 0, 0, 0]);
        assert_eq!(a.bonuses, 2);
        // Already at 18: no new bonus.
        assert_eq!(t.apply(&c, 0, [(0, 3), (2, 1)]).bonuses, 0);
        // A double crossing 18 earns one bonus, the rest is lost.
        t.values[0][3] = 15;
        let a = t.apply(&c, 0, [(3, 2), (3, 4)]);
        assert_eq!((t.values[0][3], a.bonuses), (18, 1));
    }

    #[test]
    fn solo_track_stops_at_18_then_counts_to_36() {
        let c = cfg(Variant::Solo, 1);
        let mut t = Tracks::default();
        t.values[0] = [16, 18, 35, 0, 0, 0];
        t.apply(&c, 0, [(0, 5), (1, 4)]);
        let a = t.apply(&c, 0, [(2, 4), (3, 0)]);
        assert_eq!(t.values[0][..3], [18, 22, 36]);
        assert_eq!(a.bonuses, 0);
    }

    #[test]
    fn solo_double_moves_half_by_half_in_the_better_order() {
        // The example of the books' rule: red at 16, a red double scoring 4 and 3. Counting
        // 3 first stops at 18, then 4 more: 22 (summing first would stop at 18).
        let c = cfg(Variant::Solo, 1);
        for halves in [[(0, 4), (0, 3)], [(0, 3), (0, 4)]] {
            let mut t = Tracks::default();
            t.values[0][0] = 16;
            t.apply(&c, 0, halves);
            assert_eq!(t.values[0][0], 22, "{halves:?}");
        }
        // Both halves below 18 together: the same as adding them.
        let mut t = Tracks::default();
        t.values[0][0] = 10;
        t.apply(&c, 0, [(0, 3), (0, 4)]);
        assert_eq!(t.values[0][0], 17);
        // Exactly 18 with the first half: the second counts from 18.
        t.values[0][0] = 15;
        t.apply(&c, 0, [(0, 3), (0, 5)]);
        assert_eq!(t.values[0][0], 23);
        // Each half caps on its own at 36.
        t.values[0][0] = 17;
        t.apply(&c, 0, [(0, 5), (0, 5)]);
        assert_eq!(t.values[0][0], 23);
        t.values[0][0] = 33;
        t.apply(&c, 0, [(0, 5), (0, 5)]);
        assert_eq!(t.values[0][0], 36);
    }

    #[test]
    fn team_bonus_at_18_and_36() {
        let c = cfg(Variant::Team, 4);
        let mut t = Tracks::default();
        t.values[1] = [16, 33, 0, 0, 0, 0];
        // Seat 3 scores for team B (track 1): 2 to reach 18, 3 to reach 36.
        let a = t.apply(&c, 3, [(0, 4), (1, 4)]);
        assert_eq!(t.values[1][..2], [18, 36]);
        assert_eq!(a.bonuses, 2);
        assert_eq!(t.values[0], [0; 6]);
    }

    #[test]
    fn team_double_earns_the_18_and_the_36_bonus() {
        let c = cfg(Variant::Team, 4);
        let mut t = Tracks::default();
        t.values[0][4] = 14;
        // 4 first: 14 -> 18 (bonus), then 18 -> 36 with 18 more (bonus).
        let a = t.apply(&c, 2, [(4, 18), (4, 4)]);
        assert_eq!((t.values[0][4], a.bonuses), (36, 2));
        // A double that only reaches 18 earns one.
        t.values[0][2] = 16;
        let a = t.apply(&c, 0, [(2, 1), (2, 5)]);
        assert_eq!((t.values[0][2], a.bonuses), (19, 1));
        // Summing first would have earned one bonus and stopped at 18.
        t.values[1][1] = 17;
        let a = t.apply(&c, 1, [(1, 5), (1, 1)]);
        assert_eq!((t.values[1][1], a.bonuses), (23, 1));
    }

    #[test]
    fn duel_tug_of_war_and_tokens() {
        let c = cfg(Variant::Duel, 2);
        let mut t = Tracks::default();
        t.values[0] = [7, -9, 0, 0, 0, 0];
        let a = t.apply(&c, 0, [(0, 5), (1, 3)]);
        assert_eq!(t.values[0][..2], [9, -6]);
        assert_eq!(a.bonuses, 1);
        assert_eq!(t.tokens[0], 0);
        // Seat 1 pulls red back, seat 0 pushes it to 9 again while holding the token: no bonus.
        t.apply(&c, 1, [(0, 1), (0, 1)]);
        assert_eq!(t.apply(&c, 0, [(0, 2), (2, 0)]).bonuses, 0);
        // Seat 1 reaches its 9 in red: takes the token from seat 0 and earns a bonus.
        assert_eq!(t.apply(&c, 1, [(0, 15), (0, 15)]).bonuses, 1);
        assert_eq!(t.tokens[0], 1);
        assert_eq!(t.values[0][0], -9);
    }

    #[test]
    fn duel_ranking_follows_the_book_example() {
        // Two markers each (orange, purple on 0); lowest 2 vs 2, then 4 vs 3: seat 0 wins.
        let c = cfg(Variant::Duel, 2);
        let mut t = Tracks::default();
        t.values[0] = [2, 0, -3, 4, -2, 0];
        assert_eq!(t.ranks(&c)[..2], [0, 1]);
        t.values[0] = [2, 0, -4, 3, -2, 0];
        assert_eq!(t.ranks(&c)[..2], [1, 0]);
        // Same markers at the same distances: a draw.
        t.values[0] = [2, 0, -3, 3, -2, 0];
        assert_eq!(t.ranks(&c)[..2], [0, 0]);
        t.values[0] = [2, 1, -4, 3, -2, 0];
        assert_eq!(t.ranks(&c)[..2], [0, 1]);
    }

    #[test]
    fn base_ranking_uses_sorted_scores() {
        let c = cfg(Variant::Standard, 4);
        let mut t = Tracks::default();
        t.values[0] = [10, 12, 13, 14, 15, 16];
        t.values[1] = [9, 12, 12, 14, 15, 16];
        t.values[2] = [9, 12, 13, 14, 15, 16];
        t.values[3] = [7, 18, 18, 18, 18, 18];
        assert_eq!(t.ranks(&c), [0, 2, 1, 3]);
    }
}
