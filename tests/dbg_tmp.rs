use pnlab::lesson::*;
#[test]
fn dbg() {
    let l = Lesson::load_text("/tmp/y.lesson.toml", &std::fs::read_to_string("/tmp/y.lesson.toml").unwrap(), &DiskThenBundled).unwrap();
    let mut l2 = l.clone();
    l2.steps[0].ask = None;
    let st = play(&l2, 0).unwrap();
    eprintln!("path {:?} moves {:?} first {:?}", st.snapshot.selection_path, st.snapshot.selection_moves, st.snapshot.nodes.iter().map(|n| (n.id, n.parent, n.move_label.clone())).collect::<Vec<_>>());
}
