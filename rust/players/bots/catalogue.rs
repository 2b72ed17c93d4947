//! The catalogue of built-in bots: for every bot its name, a one-line description, its
//! strength rank, whether it searches, and every option with its type, default, bounds and
//! help. It is the one list of bots: the bindings, `genial.bots`, the command line, the web
//! lobby and the docs all read it, and every bot spec (name and options, or the text form
//! `mcts:iterations=100,width=6`) becomes a [`BotSpec`] here, checked against it.
//!
//! Adding a bot: its code (a `Bot`, a `BotSpec` and an `AnyBot` case), one [`BotEntry`] in
//! [`CATALOGUE`], and one arm in [`build`] that reads its options.

use super::levels::{settings, LevelKind};
use super::{
    BotSpec, MctsConfig, Plain, Playout, Prior, SearchConfig, MAX_DEPTH, MAX_ITERATIONS, MAX_TIME_MS, MAX_WIDTH,
};
use std::fmt;

/// What an option holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Int,
    /// A finite number in `min..=max` (above `min` when `min_open`).
    Float,
    /// One of `choices` (a choice ending in `N` stands for a number, as `sampleN`).
    Choice,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::Choice => "choice",
        }
    }
}

/// An option's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
    Text(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v:?}"),
            Value::Text(v) => write!(f, "{v}"),
        }
    }
}

/// Options by name, as the catalogue reads and reports them.
pub type Options = Vec<(&'static str, Value)>;

/// A default value, as written in the catalogue.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Default {
    Int(i64),
    Float(f64),
    Text(&'static str),
    /// One value per table size, for 2, 3 and 4 players (solo and duel count as 2, the team
    /// game as 4): a level's budget of iterations. It is written here only; `levels` reads it.
    ByPlayers([u32; 3]),
}

/// One option of a bot.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub default: Default,
    /// Bounds of an `Int` or `Float` (inclusive, but see `min_open`).
    pub min: f64,
    pub max: f64,
    /// The value must be above `min`, not equal to it.
    pub min_open: bool,
    /// The accepted texts of a `Choice`.
    pub choices: &'static [&'static str],
    pub help: &'static str,
}

impl OptionSpec {
    const fn int(name: &'static str, default: i64, min: u32, max: u32, help: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind: Kind::Int,
            default: Default::Int(default),
            min: min as f64,
            max: max as f64,
            min_open: false,
            choices: &[],
            help,
        }
    }

    const fn float(name: &'static str, default: f64, min: f64, max: f64, help: &'static str) -> OptionSpec {
        OptionSpec {
            name,
            kind: Kind::Float,
            default: Default::Float(default),
            min,
            max,
            min_open: false,
            choices: &[],
            help,
        }
    }

    const fn choice(
        name: &'static str,
        default: &'static str,
        choices: &'static [&'static str],
        help: &'static str,
    ) -> OptionSpec {
        OptionSpec {
            name,
            kind: Kind::Choice,
            default: Default::Text(default),
            min: 0.0,
            max: 0.0,
            min_open: false,
            choices,
            help,
        }
    }

    /// The bounds in words: `0..=300`, `> 0 and <= 64`, `auto or never`.
    pub fn bounds(&self) -> String {
        match self.kind {
            Kind::Int => format!("{}..={}", self.min, self.max),
            Kind::Float if self.min_open => format!("a finite number > {} and <= {}", self.min, self.max),
            Kind::Float => format!("a finite number in {}..={}", self.min, self.max),
            Kind::Choice => or_list(self.choices),
        }
    }

    /// Checks `value` against the option's type and bounds.
    pub fn check(&self, bot: &str, value: &Value) -> Result<(), SpecError> {
        let bad = |shown: String| SpecError::OutOfRange {
            bot: bot.to_string(),
            option: self.name,
            bounds: self.bounds(),
            value: shown,
        };
        match (self.kind, value) {
            (Kind::Int, Value::Int(v)) => {
                if (*v as f64) < self.min || (*v as f64) > self.max {
                    return Err(bad(v.to_string()));
                }
            }
            (Kind::Float, Value::Float(v)) => {
                let low = if self.min_open { *v <= self.min } else { *v < self.min };
                if !v.is_finite() || low || *v > self.max {
                    return Err(bad(format!("{v:?}")));
                }
            }
            (Kind::Float, Value::Int(v)) => return self.check(bot, &Value::Float(*v as f64)),
            (Kind::Choice, Value::Text(t)) => {
                if !self.choices.iter().any(|c| choice_matches(c, t)) {
                    return Err(bad(format!("{t:?}")));
                }
            }
            (kind, v) => {
                return Err(SpecError::WrongType { option: self.name, kind, value: v.to_string() });
            }
        }
        Ok(())
    }
}

/// Whether `text` is the choice `pattern`, where a pattern ending in `N` stands for a
/// number 1..=64 (`sampleN`: `sample1` ... `sample64`).
fn choice_matches(pattern: &str, text: &str) -> bool {
    match pattern.strip_suffix('N') {
        Some(stem) => text.strip_prefix(stem).and_then(|n| n.parse::<u8>().ok()).is_some_and(|n| (1..=64).contains(&n)),
        None => pattern == text,
    }
}

fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// One built-in bot.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct BotEntry {
    pub name: &'static str,
    pub description: &'static str,
    /// Strength rank among the built-in bots, 1 the weakest (measured: BENCHMARKS.md).
    pub strength: u8,
    /// A named playing level (`easy` ... `expert`).
    pub level: bool,
    /// Takes milliseconds a move rather than microseconds (so Ctrl-C must reach it).
    pub searches: bool,
    pub options: &'static [OptionSpec],
}

impl BotEntry {
    pub fn option(&self, name: &str) -> Option<&'static OptionSpec> {
        self.options.iter().find(|o| o.name == name)
    }

    fn option_names(&self) -> String {
        self.options.iter().map(|o| o.name).collect::<Vec<_>>().join(", ")
    }
}

const SWAP: OptionSpec = OptionSpec::choice(
    "swap",
    "auto",
    &["auto", "never"],
    "auto: the bot decides; never: decline every swap (and never swap instead of placing)",
);
const TIME_MS: OptionSpec = OptionSpec::int(
    "time_ms",
    0,
    0,
    MAX_TIME_MS,
    "milliseconds per decision, alone or with iterations (whichever ends first); play then depends on the machine",
);

const fn exploration(default: f64) -> OptionSpec {
    OptionSpec::float("exploration", default, 0.0, 100.0, "the UCB1 exploration constant (returns lie in 0..1)")
}

const fn width(default: i64, help: &'static str) -> OptionSpec {
    OptionSpec::int("width", default, 1, MAX_WIDTH, help)
}

const MCTS_OPTIONS: &[OptionSpec] = &[
    OptionSpec::int(
        "iterations",
        300,
        0,
        MAX_ITERATIONS,
        "iterations per decision (0 with time_ms: until the time is up)",
    ),
    TIME_MS,
    exploration(0.5),
    width(6, "moves considered per node, best first by the greedy evaluation"),
    OptionSpec::choice(
        "playout",
        "greedy",
        &["greedy", "random", "sampleN"],
        "how playouts pick moves: the greedy choice, at random, or the best of N random moves (N in 1..=64)",
    ),
    OptionSpec::int(
        "depth",
        10,
        0,
        MAX_DEPTH,
        "placements per playout before the position is ranked as it stands (0: to the end)",
    ),
    SWAP,
];

const ONE_PLY_HELP_TEMPERATURE: &str =
    "0: the best move; above 0, moves are sampled with probability ∝ exp(score / temperature)";
const ONE_PLY_HELP_RERANK: &str = "the best moves by the cheap score that the full evaluation re-ranks (0 or 1: none)";
/// Most candidates re-ranked (more than a position has legal placements, in practice).
pub const MAX_RERANK: u32 = 1024;
/// Highest sampling temperature (the evaluation's scores lie within a few units).
pub const MAX_TEMPERATURE: f64 = 100.0;
/// Most free pairs of a board (the 169-cell board has 462): an `endgame` this high plays
/// every playout to the end of the game.
pub const MAX_ENDGAME: u32 = 462;

const EASY_OPTIONS: &[OptionSpec] = &[
    OptionSpec::float("temperature", 0.15, 0.0, MAX_TEMPERATURE, ONE_PLY_HELP_TEMPERATURE),
    OptionSpec::int("rerank", 0, 0, MAX_RERANK, ONE_PLY_HELP_RERANK),
    SWAP,
];
const MEDIUM_OPTIONS: &[OptionSpec] = &[
    OptionSpec::float("temperature", 0.0, 0.0, MAX_TEMPERATURE, ONE_PLY_HELP_TEMPERATURE),
    OptionSpec::int("rerank", 6, 0, MAX_RERANK, ONE_PLY_HELP_RERANK),
    SWAP,
];

macro_rules! search_options {
    ($budget:expr, $infer:literal, $prior:literal, $puct:literal) => {
        &[
            OptionSpec {
                default: Default::ByPlayers($budget),
                ..OptionSpec::int(
                    "iterations",
                    0,
                    0,
                    MAX_ITERATIONS,
                    "iterations per decision, for every table size (default: the level's budget by player count)",
                )
            },
            TIME_MS,
            exploration(0.35),
            width(12, "most candidates per node, best first by the evaluation"),
            OptionSpec::int("depth", 2, 0, MAX_DEPTH, "placements of a playout before the evaluation cuts it"),
            OptionSpec {
                min_open: true,
                ..OptionSpec::float(
                    "widen",
                    1.0,
                    0.0,
                    MAX_WIDTH as f64,
                    "progressive widening: a node visited n times considers 1 + widen·√n candidates",
                )
            },
            OptionSpec::int(
                "endgame",
                12,
                0,
                MAX_ENDGAME,
                "free pairs at or below which playouts run to the end of the game",
            ),
            OptionSpec::choice(
                "infer",
                $infer,
                &["on", "off"],
                "on: deal the other seats' hidden racks by how likely their public moves make them; \
                 off: uniformly from the unseen tiles",
            ),
            OptionSpec::choice(
                "prior",
                $prior,
                &["fitted", "policy"],
                "what ranks the root's moves: the fitted evaluation's cheap score, or the learned policy network",
            ),
            OptionSpec::float(
                "puct",
                $puct,
                0.0,
                100.0,
                "0: the root selects by UCB1; above 0: by PUCT with this constant, weighing moves by the prior's \
                 probabilities",
            ),
            SWAP,
        ]
    };
}

/// Every built-in bot, in the order they are listed.
pub const CATALOGUE: &[BotEntry] = &[
    BotEntry {
        name: "random",
        description: "a uniformly random legal move",
        strength: 1,
        level: false,
        searches: false,
        options: &[SWAP],
    },
    BotEntry {
        name: "greedy",
        description:
            "one placement ahead: the scores that rank best for it (its lowest colour first), then bonuses, then points",
        strength: 3,
        level: false,
        searches: false,
        options: &[SWAP],
    },
    BotEntry {
        name: "mcts",
        description: "information-set Monte Carlo tree search with greedy playouts; never reads hidden tiles",
        strength: 7,
        level: false,
        searches: true,
        options: MCTS_OPTIONS,
    },
    BotEntry {
        name: "scarcity",
        description: "another engine's one-ply player, valuing each colour by how scarce it is; the reference to beat",
        strength: 5,
        level: false,
        searches: false,
        options: &[SWAP],
    },
    BotEntry {
        name: "policy",
        description: "the learned policy network alone, trained on the expert's searches: one forward pass a \
                      decision, its top legal move",
        strength: 6,
        level: false,
        searches: false,
        options: &[SWAP],
    },
    BotEntry {
        name: "easy",
        description: "level 1: samples moves by the fitted evaluation's cheap score; sensible and beatable",
        strength: 2,
        level: true,
        searches: false,
        options: EASY_OPTIONS,
    },
    BotEntry {
        name: "medium",
        description:
            "level 2: the fitted evaluation's best move one ply deep, its best few re-ranked by the full evaluation",
        strength: 4,
        level: true,
        searches: false,
        options: MEDIUM_OPTIONS,
    },
    BotEntry {
        name: "hard",
        description: "level 3: information-set search guided by the fitted evaluation",
        strength: 8,
        level: true,
        searches: true,
        // The searching levels' budgets, iterations a decision with 2/3/4 players, are written
        // here only (`levels` and every table read them). `expert`'s thinks about 50 ms a move
        // (median) in 2- and 4-player games on the reference machine (BENCHMARKS.md).
        options: search_options!([200, 140, 100], "off", "fitted", 0.0),
    },
    BotEntry {
        name: "expert",
        description: "level 4: the same search with a larger budget (about 50 ms a move)",
        strength: 9,
        level: true,
        searches: true,
        options: search_options!([800, 560, 400], "off", "fitted", 0.0),
    },
    BotEntry {
        name: "master",
        description: "level 5: the expert's search with the learned policy ranking its moves, a learned \
                      evaluation, an exhaustive endgame and time management (about 50 ms a move)",
        strength: 10,
        level: true,
        searches: true,
        options: search_options!([800, 600, 500], "off", "policy", 0.0),
    },
];

/// The entry of a bot by name.
pub fn entry(name: &str) -> Option<&'static BotEntry> {
    CATALOGUE.iter().find(|e| e.name == name)
}

/// The budget of the searching level `name` (iterations a decision with 2, 3 and 4
/// players): the default of its `iterations` option, the one place it is written.
pub fn level_budget(name: &str) -> Option<[u32; 3]> {
    match entry(name)?.option("iterations")?.default {
        Default::ByPlayers(budget) => Some(budget),
        _ => None,
    }
}

/// The settings of the named level with its budget, or `None` for an unknown name.
pub fn level(name: &str) -> Option<LevelKind> {
    Some(match settings(name)? {
        LevelKind::Search(c) => {
            let by_players = level_budget(name).expect("the catalogue gives every searching level a budget");
            LevelKind::Search(SearchConfig { iterations: by_players[0], iterations_by_players: Some(by_players), ..c })
        }
        one_ply => one_ply,
    })
}

/// The names of the built-in bots, in catalogue order.
pub fn names() -> impl Iterator<Item = &'static str> {
    CATALOGUE.iter().map(|e| e.name)
}

/// Why a bot spec was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecError {
    UnknownBot(String),
    /// The bot has no such option.
    UnknownOption {
        bot: &'static str,
        option: String,
        takes: String,
    },
    OutOfRange {
        bot: String,
        option: &'static str,
        bounds: String,
        value: String,
    },
    /// A value of the wrong type (a text where a number belongs, ...).
    WrongType {
        option: &'static str,
        kind: Kind,
        value: String,
    },
    /// The text form is malformed (`key` without `=value`, a number that is none).
    Syntax(String),
    /// The options are each fine but do not go together (no budget at all, ...).
    Invalid(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::UnknownBot(name) => {
                write!(f, "unknown bot '{name}': built-in bots are {}", names().collect::<Vec<_>>().join(", "))
            }
            SpecError::UnknownOption { bot, option, takes } => {
                write!(f, "the {bot} bot takes no option {option}: its options are {takes}")
            }
            SpecError::OutOfRange { bot, option, bounds, value } => {
                write!(f, "{bot} option {option} must be {bounds}, not {value}")
            }
            SpecError::WrongType { option, kind, value } => {
                let what = match kind {
                    Kind::Int => "an int",
                    Kind::Float => "a number",
                    Kind::Choice => "a str",
                };
                write!(f, "{option} must be {what}, not {value}")
            }
            SpecError::Syntax(m) | SpecError::Invalid(m) => f.write_str(m),
        }
    }
}

/// The spec of bot `name` with `options` (each checked against the catalogue: an option the
/// bot does not take, or a value out of its bounds, is refused with the option named).
pub fn build(name: &str, options: &[(&str, Value)]) -> Result<BotSpec, SpecError> {
    let e = entry(name).ok_or_else(|| SpecError::UnknownBot(name.to_string()))?;
    let mut seen: Vec<&str> = Vec::new();
    for (key, value) in options {
        let spec = e.option(key).ok_or_else(|| SpecError::UnknownOption {
            bot: e.name,
            option: key.to_string(),
            takes: e.option_names(),
        })?;
        if seen.contains(key) {
            return Err(SpecError::Syntax(format!("option {key} is given twice")));
        }
        seen.push(key);
        spec.check(e.name, value)?;
    }
    let get = |key: &str| options.iter().find(|(k, _)| *k == key).map(|(_, v)| v);
    let int = |key: &str| {
        get(key).map(|v| match v {
            Value::Int(i) => *i as u32,
            _ => unreachable!("checked as an int"),
        })
    };
    let float = |key: &str| {
        get(key).map(|v| match v {
            Value::Int(i) => *i as f64,
            Value::Float(x) => *x,
            Value::Text(_) => unreachable!("checked as a number"),
        })
    };
    let text = |key: &str| {
        get(key).map(|v| match v {
            Value::Text(t) => t.as_str(),
            _ => unreachable!("checked as a choice"),
        })
    };
    let never = text("swap") == Some("never");
    let spec = match e.name {
        "random" => plain(Plain::Random, never),
        "greedy" => plain(Plain::Greedy, never),
        "scarcity" => plain(Plain::Scarcity, never),
        "policy" => BotSpec::Policy(never),
        "mcts" => {
            let mut c = MctsConfig::default();
            // A time budget alone means: search until the time is up.
            if let Some(t) = int("time_ms") {
                c.time_ms = t;
                c.iterations = int("iterations").unwrap_or(0);
            } else if let Some(i) = int("iterations") {
                c.iterations = i;
            }
            if let Some(x) = float("exploration") {
                c.exploration = x;
            }
            if let Some(w) = int("width") {
                c.width = w;
            }
            if let Some(p) = text("playout") {
                c.playout = Playout::parse(p).expect("checked against the choices");
            }
            if let Some(d) = int("depth") {
                c.depth = d;
            }
            plain(Plain::Mcts(c), never)
        }
        name => match level(name) {
            Some(LevelKind::OnePly(mut c)) => {
                if let Some(t) = float("temperature") {
                    c.temperature = t;
                }
                if let Some(r) = int("rerank") {
                    c.rerank = r;
                }
                c.never_swap = never;
                BotSpec::Level(e.name, LevelKind::OnePly(c))
            }
            Some(LevelKind::Search(mut c)) => {
                // A time budget alone means: search until the time is up; `time_ms=0` means
                // no time limit. An explicit budget replaces the level's budgets by player count.
                match (int("time_ms"), int("iterations")) {
                    (Some(t), i) if t > 0 => {
                        c.time_ms = t;
                        c.iterations = i.unwrap_or(0);
                        c.iterations_by_players = None;
                    }
                    (_, Some(i)) => {
                        c.iterations = i;
                        c.iterations_by_players = None;
                    }
                    _ => {}
                }
                if let Some(x) = float("exploration") {
                    c.exploration = x;
                }
                if let Some(w) = int("width") {
                    c.width = w;
                }
                if let Some(d) = int("depth") {
                    c.depth = d;
                }
                if let Some(w) = float("widen") {
                    c.widen = w;
                }
                if let Some(x) = int("endgame") {
                    c.endgame = x;
                }
                if let Some(x) = text("infer") {
                    c.infer = x == "on";
                }
                if let Some(x) = text("prior") {
                    c.prior = if x == "policy" { Prior::Policy } else { Prior::Fitted };
                }
                if let Some(x) = float("puct") {
                    c.puct = x;
                }
                c.never_swap = never;
                BotSpec::Level(e.name, LevelKind::Search(c))
            }
            None => unreachable!("every catalogue entry is built above: {name}"),
        },
    };
    spec.validate().map_err(SpecError::Invalid)?;
    Ok(spec)
}

fn plain(p: Plain, never: bool) -> BotSpec {
    if never {
        BotSpec::NeverSwap(p)
    } else {
        p.spec()
    }
}

/// Reads the text form `name` or `name:key=value,key=value` (values typed by the catalogue:
/// `mcts:iterations=200,playout=sample4`) into a bot name and its options.
pub fn parse_text(text: &str) -> Result<(&'static str, Options), SpecError> {
    let (name, rest) = text.trim().split_once(':').unwrap_or((text.trim(), ""));
    let e = entry(name.trim()).ok_or_else(|| SpecError::UnknownBot(name.trim().to_string()))?;
    let mut options = Vec::new();
    for item in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let Some((key, value)) = item.split_once('=') else {
            return Err(SpecError::Syntax(format!("bot option {item:?} in {text:?} is not key=value")));
        };
        let (key, value) = (key.trim(), value.trim());
        let o = e.option(key).ok_or_else(|| SpecError::UnknownOption {
            bot: e.name,
            option: key.to_string(),
            takes: e.option_names(),
        })?;
        let v = match o.kind {
            Kind::Int => Value::Int(value.parse().map_err(|_| {
                SpecError::Syntax(format!("bot option {key}={value:?} in {text:?} is not an int ({})", o.bounds()))
            })?),
            Kind::Float => Value::Float(value.parse().map_err(|_| {
                SpecError::Syntax(format!("bot option {key}={value:?} in {text:?} is not a number ({})", o.bounds()))
            })?),
            Kind::Choice => Value::Text(value.to_string()),
        };
        options.push((o.name, v));
    }
    Ok((e.name, options))
}

/// The spec of a bot from its text form (see [`parse_text`]).
pub fn parse(text: &str) -> Result<BotSpec, SpecError> {
    let (name, options) = parse_text(text)?;
    build(name, &options)
}

/// The settings of `spec` as options that [`build`] reads back to the same spec, in
/// catalogue order. `swap` is listed only when it is `never`, and a level's iterations only
/// when set explicitly (its own budgets by player count are no value one could write back).
pub fn options_of(spec: &BotSpec) -> Options {
    let mut out: Options = Vec::new();
    let int = |v: u32| Value::Int(v as i64);
    let mcts = |c: &MctsConfig, out: &mut Options| {
        out.push(("iterations", int(c.iterations)));
        out.push(("time_ms", int(c.time_ms)));
        out.push(("exploration", Value::Float(c.exploration)));
        out.push(("width", int(c.width)));
        out.push(("playout", Value::Text(c.playout.name())));
        out.push(("depth", int(c.depth)));
    };
    match spec {
        BotSpec::Mcts(c) | BotSpec::NeverSwap(Plain::Mcts(c)) => mcts(c, &mut out),
        BotSpec::Level(_, LevelKind::OnePly(c)) => {
            out.push(("temperature", Value::Float(c.temperature)));
            out.push(("rerank", int(c.rerank)));
        }
        BotSpec::Level(_, LevelKind::Search(c)) => {
            if c.iterations_by_players.is_none() {
                out.push(("iterations", int(c.iterations)));
            }
            out.push(("time_ms", int(c.time_ms)));
            out.push(("exploration", Value::Float(c.exploration)));
            out.push(("width", int(c.width)));
            out.push(("depth", int(c.depth)));
            out.push(("widen", Value::Float(c.widen)));
            out.push(("endgame", int(c.endgame)));
            out.push(("infer", Value::Text(if c.infer { "on" } else { "off" }.into())));
            out.push(("prior", Value::Text(if c.prior == Prior::Policy { "policy" } else { "fitted" }.into())));
            out.push(("puct", Value::Float(c.puct)));
        }
        _ => {}
    }
    if spec.never_swaps() {
        out.push(("swap", Value::Text("never".into())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_builds_with_its_defaults_and_reports_them() {
        for e in CATALOGUE {
            let spec = build(e.name, &[]).unwrap();
            assert_eq!(spec.name(), e.name);
            assert_eq!(spec.build(1).searches(), e.searches, "{}", e.name);
            for (key, value) in options_of(&spec) {
                let o = e.option(key).unwrap_or_else(|| panic!("{} reports {key}, not in the catalogue", e.name));
                let want = match o.default {
                    Default::Int(i) => Value::Int(i),
                    Default::Float(x) => Value::Float(x),
                    Default::Text(t) => Value::Text(t.into()),
                    Default::ByPlayers(_) => panic!("{key} of {} has no single default", e.name),
                };
                assert_eq!(value, want, "{} {key}", e.name);
            }
            // Every option is accepted, and round-trips.
            for o in e.options {
                let v = match o.default {
                    Default::Int(i) => Value::Int(i.max(o.min as i64).max(1)),
                    Default::Float(x) => Value::Float(x.max(0.5)),
                    Default::Text(_) => Value::Text(o.choices[o.choices.len() - 1].replace('N', "4")),
                    Default::ByPlayers(_) => Value::Int(50),
                };
                let spec =
                    build(e.name, &[(o.name, v.clone())]).unwrap_or_else(|err| panic!("{} {}: {err}", e.name, o.name));
                let back: Vec<(&str, Value)> = options_of(&spec);
                assert_eq!(build(e.name, &back).unwrap(), spec, "{} {}", e.name, o.name);
            }
        }
    }

    #[test]
    fn a_searching_level_plays_the_budget_of_its_iterations_option() {
        for e in CATALOGUE.iter().filter(|e| e.level) {
            match level(e.name) {
                Some(LevelKind::Search(c)) => {
                    let budget = level_budget(e.name).expect("a searching level has a budget");
                    assert_eq!([2, 3, 4].map(|players| c.budget(players)), budget, "{}", e.name);
                    let built = build(e.name, &[]).unwrap();
                    assert!(
                        matches!(built, BotSpec::Level(_, LevelKind::Search(b)) if b.iterations_by_players == Some(budget)),
                        "{}",
                        e.name
                    );
                }
                _ => assert_eq!(level_budget(e.name), None, "{}", e.name),
            }
        }
    }

    #[test]
    fn names_are_unique_and_ranks_are_a_permutation() {
        let mut ranks: Vec<u8> = CATALOGUE.iter().map(|e| e.strength).collect();
        ranks.sort_unstable();
        assert_eq!(ranks, (1..=CATALOGUE.len() as u8).collect::<Vec<_>>());
        for (i, e) in CATALOGUE.iter().enumerate() {
            assert!(CATALOGUE[i + 1..].iter().all(|f| f.name != e.name));
            assert_eq!(e.level, level(e.name).is_some());
        }
    }

    #[test]
    fn errors_name_the_option_and_its_bounds() {
        let e = build("greedy", &[("iterations", Value::Int(5))]).unwrap_err();
        assert_eq!(e.to_string(), "the greedy bot takes no option iterations: its options are swap");
        let e = build("expert", &[("endgame", Value::Int(10_000))]).unwrap_err();
        assert_eq!(e.to_string(), "expert option endgame must be 0..=462, not 10000");
        let e = build("easy", &[("rerank", Value::Int(5000))]).unwrap_err();
        assert!(e.to_string().contains("rerank must be 0..=1024"), "{e}");
        let e = build("medium", &[("temperature", Value::Float(1e9))]).unwrap_err();
        assert!(e.to_string().contains("temperature must be a finite number in 0..=100"), "{e}");
        let e = build("hard", &[("widen", Value::Float(0.0))]).unwrap_err();
        assert!(e.to_string().contains("widen must be a finite number > 0 and <= 64"), "{e}");
        let e = build("greedy", &[("swap", Value::Text("sometimes".into()))]).unwrap_err();
        assert_eq!(e.to_string(), "greedy option swap must be auto or never, not \"sometimes\"");
        let e = build("mcts", &[("playout", Value::Text("sample0".into()))]).unwrap_err();
        assert!(e.to_string().contains("greedy, random or sampleN"), "{e}");
        assert!(matches!(build("chess", &[]), Err(SpecError::UnknownBot(_))));
        assert!(matches!(build("mcts", &[("iterations", Value::Int(0))]), Err(SpecError::Invalid(_))));
        assert!(matches!(build("mcts", &[("width", Value::Text("x".into()))]), Err(SpecError::WrongType { .. })));
    }

    #[test]
    fn text_forms() {
        let spec = parse("mcts:iterations=100, playout=sample4,swap=never").unwrap();
        let BotSpec::NeverSwap(Plain::Mcts(c)) = spec else { panic!("{spec:?}") };
        assert_eq!((c.iterations, c.playout), (100, Playout::Sample(4)));
        assert_eq!(parse("greedy").unwrap(), BotSpec::Greedy);
        assert!(parse("expert:colour=red").unwrap_err().to_string().contains("takes no option colour"));
        assert!(parse("mcts:iterations").unwrap_err().to_string().contains("not key=value"));
        assert!(parse("mcts:iterations=many").unwrap_err().to_string().contains("not an int"));
        assert!(parse("hard:iterations=30,endgame=4").is_ok());
        let Ok(BotSpec::Level(_, LevelKind::Search(c))) = parse("master:infer=on") else { panic!() };
        assert!(c.infer && !matches!(parse("master").unwrap(), BotSpec::Level(_, LevelKind::Search(c)) if c.infer));
        assert!(parse("expert:infer=maybe").unwrap_err().to_string().contains("on or off"));
    }
}
