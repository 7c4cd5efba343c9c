//! The record of a chance search for the viewers: one entry per node the
//! search has reached (under a cap), with the window it was searched with,
//! the value it returned and whether that value is exact or a bound, and
//! at chance nodes the log of m and M after each child (the inspector's
//! "why a cut-off happened"). The engine runs the same with or without
//! the record; past the cap it simply stops recording deeper nodes.

/// "No record" (not recorded, or past the cap).
pub const NONE: u32 = u32::MAX;

/// What a recorded node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecKind {
    /// Generated as a child, not searched (pruned, or not reached yet).
    Unvisited,
    /// An attacker (MAX) node.
    Max,
    /// An opponent (MIN) node.
    Min,
    /// A chance node (a die roll).
    Chance,
    /// A finished game, valued by its final score.
    Leaf,
}

/// What a returned value says about the node's true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Still being searched.
    Pending,
    /// The value is the node's true value.
    Exact,
    /// The value is at least this (fail high).
    Lower,
    /// The value is at most this (fail low).
    Upper,
}

impl Bound {
    /// A word for the inspector.
    pub fn word(self) -> &'static str {
        match self {
            Bound::Pending => "pending",
            Bound::Exact => "exact",
            Bound::Lower => "lower bound (≥)",
            Bound::Upper => "upper bound (≤)",
        }
    }
}

/// The phase of a chance node's loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `star2`'s probe of a child's first move.
    Probe,
    /// The Star1 loop (or expectimax's plain loop).
    Search,
}

/// A chance node cut-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// m ≥ β: the lower bound is good enough (like a beta cut-off).
    One,
    /// M ≤ α: the upper bound is bad enough (like an alpha cut-off).
    Two,
}

/// One result at a chance node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChanceStep {
    /// Whether the result came from a probe or the full loop.
    pub phase: Phase,
    /// The child (outcome) index.
    pub child: u32,
    /// What the child's search (or probe) returned.
    pub value: f64,
    /// What that value says about the child.
    pub bound: Bound,
    /// The window the child (or the probe) was searched with.
    pub window: (f64, f64),
    /// The bounds on the chance node's value afterwards.
    pub m: f64,
    /// Upper bound M on the chance node's value afterwards (m's partner).
    pub big_m: f64,
    /// The cut-off this result caused.
    pub cut: Option<Cut>,
}

/// One recorded node.
#[derive(Clone, Copy, Debug)]
pub struct Rec<M> {
    /// The parent's record index (`NONE` for the root).
    pub parent: u32,
    /// Its index among the parent's children (legal-move order).
    pub child_index: u32,
    /// The move that leads here from the parent.
    pub mv: M,
    /// The probability of the edge from a chance parent (1 otherwise).
    pub prob: f64,
    /// What kind of node it is (or `Unvisited`).
    pub kind: RecKind,
    /// Children in `recs[first_child..first_child + n_children]`
    /// (`NONE` before expansion or past the cap).
    pub first_child: u32,
    /// Number of children (0 before expansion).
    pub n_children: u32,
    /// The window of the last search.
    pub window: (f64, f64),
    /// The last value the search returned for it.
    pub value: f64,
    /// Whether `value` is exact or a bound.
    pub bound: Bound,
    /// Reached inside a probe (`star2`).
    pub probed: bool,
    /// The chance log in `logs` (`NONE` when there is none).
    pub log: u32,
}

impl<M> Rec<M> {
    /// A record not searched yet: child `child_index` of `parent`, reached
    /// by `mv` with edge probability `prob`, no children, no result.
    fn unvisited(parent: u32, child_index: u32, mv: M, prob: f64) -> Rec<M> {
        Rec {
            parent,
            child_index,
            mv,
            prob,
            kind: RecKind::Unvisited,
            first_child: NONE,
            n_children: 0,
            window: (f64::NAN, f64::NAN),
            value: f64::NAN,
            bound: Bound::Pending,
            probed: false,
            log: NONE,
        }
    }
}

/// The recorded tree.
#[derive(Clone)]
pub struct Records<M> {
    /// Recorded nodes, root first; children of one node are contiguous.
    pub recs: Vec<Rec<M>>,
    /// The chance logs, one per chance node that has one.
    pub logs: Vec<Vec<ChanceStep>>,
    cap: usize,
    /// Nodes that could not be recorded (the cap was reached).
    pub dropped: u64,
}

impl<M: Copy + Default> Records<M> {
    /// An empty record holding at most `cap` nodes.
    pub fn new(cap: usize) -> Records<M> {
        Records {
            recs: Vec::new(),
            logs: Vec::new(),
            cap: cap.max(1),
            dropped: 0,
        }
    }

    /// The root's record.
    pub fn root(&mut self) -> u32 {
        if self.recs.is_empty() {
            self.recs.push(Rec::unvisited(NONE, 0, M::default(), 1.0));
        }
        0
    }

    /// Marks `rec` as being searched as `kind` with `window`; a repeated
    /// visit forgets the children's earlier results.
    pub fn visit(&mut self, rec: u32, kind: RecKind, window: (f64, f64), probed: bool) {
        let Some(r) = self.recs.get_mut(rec as usize) else {
            return;
        };
        r.kind = kind;
        r.window = window;
        r.value = f64::NAN;
        r.bound = Bound::Pending;
        r.probed = probed;
        if r.log != NONE {
            self.logs[r.log as usize].clear();
        }
        let (first, n) = (r.first_child, r.n_children);
        if first != NONE {
            for c in &mut self.recs[first as usize..(first + n) as usize] {
                c.kind = RecKind::Unvisited;
                c.value = f64::NAN;
                c.bound = Bound::Pending;
            }
        }
    }

    /// Gives `rec` its children (once; later calls keep the first ones).
    pub fn expand(&mut self, rec: u32, children: impl Iterator<Item = (M, f64)>) {
        let Some(r) = self.recs.get(rec as usize) else {
            return;
        };
        if r.first_child != NONE {
            return;
        }
        let first = self.recs.len();
        let children: Vec<(M, f64)> = children.collect();
        if first + children.len() > self.cap {
            self.dropped += children.len() as u64;
            return;
        }
        for (i, (mv, prob)) in children.iter().enumerate() {
            self.recs.push(Rec::unvisited(rec, i as u32, *mv, *prob));
        }
        let r = &mut self.recs[rec as usize];
        r.first_child = first as u32;
        r.n_children = children.len() as u32;
    }

    /// The record of child `i` of `rec` (`NONE` when there is none).
    pub fn child(&self, rec: u32, i: usize) -> u32 {
        match self.recs.get(rec as usize) {
            Some(r) if r.first_child != NONE && i < r.n_children as usize => {
                r.first_child + i as u32
            }
            _ => NONE,
        }
    }

    /// Stores the value `rec` returned.
    pub fn finish(&mut self, rec: u32, value: f64, bound: Bound) {
        if let Some(r) = self.recs.get_mut(rec as usize) {
            r.value = value;
            r.bound = bound;
        }
    }

    /// Gives back `rec` the result a `star2` probe found for it, after its
    /// parent's full search reset it (the full search took that result
    /// without entering the node again); its own subtree's records stay
    /// as the probe left them.
    pub fn restore_probe(
        &mut self,
        rec: u32,
        kind: RecKind,
        window: (f64, f64),
        value: f64,
        bound: Bound,
    ) {
        if let Some(r) = self.recs.get_mut(rec as usize) {
            r.kind = kind;
            r.window = window;
            r.value = value;
            r.bound = bound;
            r.probed = true;
        }
    }

    /// Appends a step to the chance log of `rec`.
    pub fn log(&mut self, rec: u32, step: ChanceStep) {
        let Some(r) = self.recs.get_mut(rec as usize) else {
            return;
        };
        if r.log == NONE {
            r.log = self.logs.len() as u32;
            self.logs.push(Vec::new());
        }
        self.logs[r.log as usize].push(step);
    }

    /// The chance log of `rec` (empty when it has none).
    pub fn steps(&self, rec: u32) -> &[ChanceStep] {
        match self.recs.get(rec as usize) {
            Some(r) if r.log != NONE => &self.logs[r.log as usize],
            _ => &[],
        }
    }

    /// Bytes held (records and logs).
    pub fn bytes(&self) -> u64 {
        (self.recs.len() * std::mem::size_of::<Rec<M>>()
            + self.logs.iter().map(Vec::len).sum::<usize>() * std::mem::size_of::<ChanceStep>())
            as u64
    }
}
