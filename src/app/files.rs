//! Files (issue #5 item 8, PRODUCT.md "Files"): opening position files
//! (rfd dialog, drag-and-drop, the embedded `positions/` browser) and the
//! exports: the tree as Graphviz DOT and SVG, the window as PNG, the curves
//! as CSV and the run as JSON, each written atomically (temp file +
//! rename, `experiments::write_atomic`). A bad file gives one message
//! naming the file, line, column and what was expected; the session is
//! untouched.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::experiments::write_atomic;
use crate::positions::{self, PositionEntry};
use crate::search::correct_moves::CorrectMoves;
use crate::search::snapshot::{fmt_value, NodeKind, NodeStatus};
use crate::search::{Snapshot, StatsSample};

use super::error_rate::ErrorTally;

use super::tree_view::Layout;

/// Reads every position of a file; the error is the user-facing
/// `FILE:LINE:COL: expected …` line.
pub fn load_path(path: &Path) -> Result<Vec<PositionEntry>, String> {
    let entries = positions::load_file(path).map_err(|e| e.to_string())?;
    if entries.is_empty() {
        return Err(format!("{}: the file holds no position", path.display()));
    }
    Ok(entries)
}

/// Reads an embedded file of the `positions/` folder.
pub fn load_bundled(path: &str) -> Result<Vec<PositionEntry>, String> {
    let Some(f) = positions::bundled().iter().find(|f| f.path == path) else {
        return Err(format!("{path}: no such bundled file"));
    };
    positions::load_text(f.path, f.text).map_err(|e| e.to_string())
}

/// The native "open" dialog (rfd, xdg portal).
pub fn pick_open() -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_title("Open a position file")
        .pick_file()
}

/// The native "save" dialog for an export.
pub fn pick_save(default_name: &str, ext: &str) -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_title("Export")
        .set_file_name(default_name)
        .add_filter(ext, &[ext])
        .save_file()
}

/// Writes `text` atomically.
pub fn save(path: &Path, bytes: &[u8]) -> Result<(), String> {
    write_atomic(path, bytes)
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn status_fill(s: NodeStatus) -> &'static str {
    match s {
        NodeStatus::Proven => "#2ea043",
        NodeStatus::Disproven => "#cf3939",
        NodeStatus::Unknown => "#96a5be",
    }
}

fn node_label(snap: &Snapshot, values: &[f64]) -> String {
    snap.label_values
        .iter()
        .filter_map(|&i| values.get(i))
        .map(|&v| fmt_value(v))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The snapshot's tree as Graphviz DOT: OR boxes, AND ellipses, status
/// colours, the selection path bold orange, moves on edges.
pub fn to_dot(snap: &Snapshot) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph pnlab {{");
    let _ = writeln!(
        out,
        "  // {} after {} iterations",
        snap.algo, snap.counters.iterations
    );
    let _ = writeln!(out, "  node [style=filled, fontname=\"Helvetica\"];");
    for (i, n) in snap.nodes.iter().enumerate() {
        let shape = match n.kind {
            NodeKind::Or => "box",
            NodeKind::And => "ellipse",
        };
        let pen = if n.on_path {
            ", color=\"#ff9614\", penwidth=3"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  n{i} [shape={shape}, fillcolor=\"{}\", label=\"{}\"{pen}];",
            status_fill(n.status),
            dot_escape(&node_label(snap, &n.values))
        );
    }
    for (i, n) in snap.nodes.iter().enumerate() {
        if let Some(p) = n.parent {
            let pen = if n.on_path && snap.nodes[p as usize].on_path {
                ", color=\"#ff9614\", penwidth=3"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "  n{p} -> n{i} [label=\"{}\"{pen}];",
                dot_escape(&n.move_label)
            );
        }
    }
    for (a, b, label) in &snap.extra_edges {
        let _ = writeln!(
            out,
            "  n{a} -> n{b} [style=dashed, label=\"{}\"];",
            dot_escape(label)
        );
    }
    out.push_str("}\n");
    out
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The snapshot's tree as a standalone SVG in the tree view's layout.
pub fn to_svg(snap: &Snapshot) -> String {
    const SLOT: f32 = 62.0;
    const LEVEL: f32 = 78.0;
    const R: f32 = 12.0;
    let layout = Layout::of(&snap.nodes);
    let w = layout.width * SLOT + 2.0 * SLOT;
    let h = layout.depth * LEVEL + 2.0 * LEVEL;
    let at = |i: usize| {
        let p = layout.pos[i];
        (SLOT + p.x * SLOT, LEVEL * 0.6 + p.y * LEVEL)
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" font-family=\"sans-serif\" font-size=\"11\">"
    );
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    for (i, n) in snap.nodes.iter().enumerate() {
        let Some(p) = n.parent else { continue };
        let (x1, y1) = at(p as usize);
        let (x2, y2) = at(i);
        let path = n.on_path && snap.nodes[p as usize].on_path;
        let (color, width) = if path { ("#ff9614", 3) } else { ("#777", 1) };
        let _ = writeln!(
            out,
            "<line x1=\"{x1:.1}\" y1=\"{:.1}\" x2=\"{x2:.1}\" y2=\"{:.1}\" stroke=\"{color}\" stroke-width=\"{width}\"/>",
            y1 + R,
            y2 - R
        );
        let (mx, my) = (x1 + (x2 - x1) * 0.55 + 4.0, y1 + (y2 - y1) * 0.55);
        let _ = writeln!(
            out,
            "<text x=\"{mx:.1}\" y=\"{my:.1}\">{}</text>",
            xml_escape(&n.move_label)
        );
    }
    for (i, n) in snap.nodes.iter().enumerate() {
        let (x, y) = at(i);
        let stroke = if n.on_path {
            "stroke=\"#ff9614\" stroke-width=\"3\""
        } else {
            "stroke=\"#333\""
        };
        match n.kind {
            NodeKind::Or => {
                let _ = writeln!(
                    out,
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{}\" height=\"{}\" fill=\"{}\" {stroke}/>",
                    x - R,
                    y - R,
                    2.0 * R,
                    2.0 * R,
                    status_fill(n.status)
                );
            }
            NodeKind::And => {
                let _ = writeln!(
                    out,
                    "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{R}\" fill=\"{}\" {stroke}/>",
                    status_fill(n.status)
                );
            }
        }
        let _ = writeln!(
            out,
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            y + R + 12.0,
            xml_escape(&node_label(snap, &n.values))
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The curves as CSV: one row per sample, the root values under their
/// names (CLI-style counter names in the header).
pub fn curves_csv(
    samples: &[StatsSample],
    value_names: &[String],
    correct: Option<&CorrectMoves>,
) -> String {
    let mut out =
        String::from("iteration,nodes,max_depth,seesaw_root_switches,seesaw_switches,revisits");
    for n in value_names {
        let _ = write!(out, ",root_{n}");
    }
    out.push_str(",best_child");
    if correct.is_some() {
        out.push_str(",best_child_correct,error_share");
    }
    out.push('\n');
    let mut tally = ErrorTally::default();
    for s in samples {
        let _ = write!(
            out,
            "{},{},{},{},{},{}",
            s.iteration,
            s.nodes,
            s.max_depth,
            s.seesaw_root_switches,
            s.seesaw_switches,
            s.revisits
        );
        for v in &s.root_values {
            if v.is_infinite() {
                out.push_str(",inf");
            } else {
                let _ = write!(out, ",{v}");
            }
        }
        match s.best_child {
            Some(b) => {
                let _ = write!(out, ",{b}");
            }
            None => out.push(','),
        }
        if let Some(c) = correct {
            let (_, wrong, share) = tally.add(s, c);
            let _ = write!(out, ",{},{share:.6}", wrong == 0.0);
        }
        out.push('\n');
    }
    out
}

/// The run as one JSON object: setup, status, counters, switch events and
/// the root's children.
pub fn run_json(
    snap: &Snapshot,
    position: &PositionEntry,
    params: &crate::search::Params,
    seed: u64,
) -> String {
    let value = serde_json::json!({
        "position": position.name,
        "game": position.game.name(),
        "notation": position.position.notation(),
        "algo": snap.algo,
        "params": params,
        "seed": seed,
        "outcome": snap.status.outcome_name(),
        "stop_reason": snap.status.stop_reason_name(),
        "counters": snap.counters,
        "switch_events": snap.switch_events,
        "root_children": snap.root_children,
        "value_names": snap.value_names,
        "selection_path": snap.selection_moves,
    });
    serde_json::to_string_pretty(&value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// Encodes an RGBA image as PNG bytes.
pub fn png_bytes(image: &egui::ColorImage) -> Result<Vec<u8>, String> {
    let [w, h] = image.size;
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, w as u32, h as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header().map_err(|e| format!("PNG: {e}"))?;
        let data: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
        writer
            .write_image_data(&data)
            .map_err(|e| format!("PNG: {e}"))?;
        writer.finish().map_err(|e| format!("PNG: {e}"))?;
    }
    Ok(bytes)
}

/// True when an image is not a single flat colour (the headless check).
pub fn is_blank(image: &egui::ColorImage) -> bool {
    match image.pixels.first() {
        Some(first) => image.pixels.iter().all(|p| p == first),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_csv_scores_each_choice_when_the_correct_moves_are_known() {
        use crate::search::correct_moves::CorrectSource;
        let sample = |iteration, best_child| StatsSample {
            iteration,
            best_child,
            root_values: vec![1.0, f64::INFINITY],
            ..StatsSample::default()
        };
        let samples = [sample(1, None), sample(2, Some(1)), sample(4, Some(0))];
        let names = vec!["pn".to_string(), "dn".to_string()];
        let plain = curves_csv(&samples, &names, None);
        assert!(plain.starts_with(
            "iteration,nodes,max_depth,seesaw_root_switches,seesaw_switches,revisits,root_pn,root_dn,best_child\n"
        ));
        let correct = CorrectMoves {
            correct: vec![true, false],
            labels: vec!["a1".into()],
            source: CorrectSource::Exhaustive,
            basis: String::new(),
        };
        let scored = curves_csv(&samples, &names, Some(&correct));
        let lines: Vec<&str> = scored.lines().collect();
        assert!(lines[0].ends_with(",best_child,best_child_correct,error_share"));
        // No choice and a wrong one over iterations 1–2, then right over
        // 3–4: half of the four iterations were wrong.
        assert!(lines[1].ends_with(",inf,,false,1.000000"), "{}", lines[1]);
        assert!(lines[2].ends_with(",inf,1,false,1.000000"), "{}", lines[2]);
        assert!(lines[3].ends_with(",inf,0,true,0.500000"), "{}", lines[3]);
    }

    #[test]
    fn png_round_trip_has_the_png_signature_and_size() {
        let img = egui::ColorImage::new([3, 2], vec![egui::Color32::RED; 6]);
        let bytes = png_bytes(&img).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: width and height big-endian at offsets 16 and 20.
        assert_eq!(&bytes[16..20], &3u32.to_be_bytes());
        assert_eq!(&bytes[20..24], &2u32.to_be_bytes());
        assert!(is_blank(&img));
    }
}
