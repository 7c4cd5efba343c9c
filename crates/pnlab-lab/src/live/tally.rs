//! The class's answers counted: the teacher's live histogram, and each
//! question's anonymous summary with its CSV.

use std::collections::HashMap;

use crate::lesson::question::parse_number;

use super::protocol::{LiveAnswer, NodeCount, QuestionSummary, ValueCount};

/// Counts node answers and typed values, most first. `answers` are in
/// the order they were first given (a value's label is how the first
/// student to give it typed it); equal numbers are one bar (`2`, `2.0`
/// and ` 2 ` together; `inf` and `∞` together).
pub fn tally<'a>(
    answers: impl IntoIterator<Item = &'a LiveAnswer>,
) -> (Vec<NodeCount>, Vec<ValueCount>) {
    let mut nodes: HashMap<&[String], usize> = HashMap::new();
    let mut values: Vec<ValueCount> = Vec::new();
    let mut value_at: HashMap<u64, usize> = HashMap::new();
    for a in answers {
        match a {
            LiveAnswer::Node(path) => *nodes.entry(path.as_slice()).or_default() += 1,
            LiveAnswer::Value(text) => {
                let key = number_key(text);
                match key.and_then(|k| value_at.get(&k)) {
                    Some(&i) => values[i].count += 1,
                    None => {
                        if let Some(k) = key {
                            value_at.insert(k, values.len());
                        }
                        values.push(ValueCount {
                            value: text.trim().to_string(),
                            count: 1,
                        });
                    }
                }
            }
        }
    }
    let mut nodes: Vec<NodeCount> = nodes
        .into_iter()
        .map(|(path, count)| NodeCount {
            path: path.to_vec(),
            count,
        })
        .collect();
    nodes.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.path.cmp(&b.path)));
    // Equal counts: nodes in path order (the root first), values in the
    // order first given (a stable sort).
    values.sort_by_key(|v| std::cmp::Reverse(v.count));
    (nodes, values)
}

/// The number a typed value means, as a key equal for equal numbers.
fn number_key(text: &str) -> Option<u64> {
    parse_number(text).map(|v| {
        if v == 0.0 {
            0f64.to_bits()
        } else {
            v.to_bits()
        }
    })
}

/// A node's name in a summary: its moves, or `root`.
pub fn node_text(path: &[String]) -> String {
    if path.is_empty() {
        "root".into()
    } else {
        path.join(" ")
    }
}

/// The most given answers as `text: count`, at most `n`.
pub fn top(nodes: &[NodeCount], values: &[ValueCount], n: usize) -> Vec<String> {
    nodes
        .iter()
        .map(|c| format!("{}: {}", node_text(&c.path), c.count))
        .chain(values.iter().map(|c| format!("{}: {}", c.value, c.count)))
        .take(n)
        .collect()
}

/// One CSV cell: quoted when it holds a comma, quote or line break, and
/// with a leading `'` when a spreadsheet would read it as a formula
/// (`=`, `+`, `-`, `@`, tab, carriage return).
pub fn csv_cell(text: &str) -> String {
    let guarded = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if guarded.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", guarded.replace('"', "\"\""))
    } else {
        guarded
    }
}

/// The summary as CSV: one row per question asked (steps 1-based, as
/// the lesson shows them), the most given answers in one cell.
pub fn summary_csv(questions: &[QuestionSummary]) -> String {
    let mut out = String::from("step,prompt,answer,answered,right,most_given\n");
    for q in questions {
        let cells = [
            (q.step + 1).to_string(),
            q.prompt.clone(),
            q.answer.clone(),
            q.answered.to_string(),
            q.right.to_string(),
            q.top.join("; "),
        ];
        let row: Vec<String> = cells.iter().map(|c| csv_cell(c)).collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(m: &[&str]) -> LiveAnswer {
        LiveAnswer::Node(m.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn nodes_count_most_first_and_equal_numbers_merge() {
        let answers = [
            node(&["b"]),
            node(&["c"]),
            node(&["c"]),
            node(&[]),
            LiveAnswer::Value("2".into()),
            LiveAnswer::Value("inf".into()),
            LiveAnswer::Value(" 2.0".into()),
            LiveAnswer::Value("∞".into()),
            LiveAnswer::Value("2".into()),
        ];
        let (nodes, values) = tally(&answers);
        let n: Vec<(String, usize)> = nodes
            .iter()
            .map(|c| (node_text(&c.path), c.count))
            .collect();
        assert_eq!(
            n,
            vec![("c".into(), 2), ("root".into(), 1), ("b".into(), 1)]
        );
        let v: Vec<(&str, usize)> = values.iter().map(|c| (c.value.as_str(), c.count)).collect();
        assert_eq!(v, vec![("2", 3), ("inf", 2)]);
        assert_eq!(top(&nodes, &values, 2), vec!["c: 2", "root: 1"]);
    }

    #[test]
    fn csv_cells_are_quoted_and_formulas_defused() {
        assert_eq!(csv_cell("plain"), "plain");
        assert_eq!(csv_cell("a, b"), "\"a, b\"");
        assert_eq!(csv_cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_cell("=1+1"), "'=1+1");
        assert_eq!(csv_cell("-2: 3"), "'-2: 3");
        assert_eq!(csv_cell("two\nlines"), "\"two\nlines\"");
        let q = QuestionSummary {
            step: 0,
            prompt: "What is pn, \"now\"?".into(),
            answer: "2".into(),
            answered: 3,
            right: 2,
            top: vec!["2: 2".into(), "=3: 1".into()],
        };
        assert_eq!(
            summary_csv(&[q]),
            "step,prompt,answer,answered,right,most_given\n1,\"What is pn, \"\"now\"\"?\",2,3,2,2: 2; =3: 1\n"
        );
    }
}
