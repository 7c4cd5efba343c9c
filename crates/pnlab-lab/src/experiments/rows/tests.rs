//! Rows → CSV text (the `csv` crate) → the `csv` crate's reader → the
//! same values as the typed cells, for every kind of field a row has.

use super::*;

/// Checks that every cell of `t`'s CSV text, read back with the `csv`
/// crate, is its typed cell: the header is the columns, integers and yes/no
/// read back equal, reals to the decimals written, missing cells empty (or
/// the word a text form writes for them).
pub(crate) fn assert_round_trip(t: &Table) {
    let mut reader = csv::Reader::from_reader(t.csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    assert_eq!(header, t.columns, "{}", t.name);
    let records: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(records.len(), t.rows.len(), "{}", t.name);
    for (record, row) in records.iter().zip(&t.rows) {
        assert_eq!(record.len(), row.len(), "{}", t.name);
        for ((text, cell), column) in record.iter().zip(row).zip(&t.columns) {
            let ok = match cell {
                Cell::Missing => matches!(text, "" | "none" | "unknown"),
                Cell::Int(i) => text.parse::<i64>() == Ok(*i),
                Cell::Bool(b) => text.parse::<bool>() == Ok(*b),
                Cell::Text(s) => text == s,
                Cell::Real(x) => {
                    let back: f64 = text.parse().unwrap_or(f64::NAN);
                    let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
                    (x.is_nan() && back.is_nan())
                        || back == *x
                        || (back - x).abs() <= 0.5 * 10f64.powi(-(decimals as i32)) + 1e-12
                }
            };
            assert!(
                ok,
                "{}: column `{column}`: `{text}` is not {cell:?}",
                t.name
            );
        }
    }
}

#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
enum Kind {
    #[default]
    Plain,
    NotPlain,
}

/// A row with every kind of field the experiments' rows use.
#[derive(Debug, Default, serde::Serialize)]
struct Sample {
    count: u64,
    delta: i32,
    #[serde(rename = "R")]
    r: Fixed<2>,
    ratio: Option<Fixed<4>>,
    eps: Option<Real>,
    kind: Kind,
    word: &'static str,
    note: String,
    done: bool,
    #[serde(serialize_with = "or_none")]
    budget: Option<u64>,
    #[serde(serialize_with = "or_unknown")]
    wins: Option<bool>,
    r#move: String,
}

fn samples() -> Vec<Sample> {
    vec![
        Sample {
            count: 12,
            delta: -3,
            r: Fixed(0.65),
            ratio: Some(Fixed(1.0 / 3.0)),
            eps: Some(Real(1e-9)),
            kind: Kind::NotPlain,
            word: "deep-pn",
            note: "plain".into(),
            done: true,
            budget: Some(64),
            wins: Some(false),
            r#move: "a1".into(),
        },
        Sample {
            count: 0,
            delta: 0,
            r: Fixed(f64::INFINITY),
            ratio: None,
            eps: None,
            kind: Kind::Plain,
            word: "",
            note: "a, \"quoted\"\nnote".into(),
            done: false,
            budget: None,
            wins: None,
            r#move: String::new(),
        },
    ]
}

#[test]
fn a_row_is_written_with_the_text_each_field_always_had() {
    let t = Table::new("dir/sample.csv", &samples()).unwrap();
    assert_eq!(t.name, "sample");
    assert_eq!(
        t.csv,
        "count,delta,R,ratio,eps,kind,word,note,done,budget,wins,move\n\
         12,-3,0.65,0.3333,0.000000001,not-plain,deep-pn,plain,true,64,false,a1\n\
         0,0,inf,,,plain,,\"a, \"\"quoted\"\"\nnote\",false,none,unknown,\n"
    );
}

#[test]
fn typed_cells_keep_the_values_not_the_text() {
    let t = Table::new("sample.csv", &samples()).unwrap();
    assert_eq!(
        t.rows[0],
        vec![
            Cell::Int(12),
            Cell::Int(-3),
            Cell::Real(0.65),
            Cell::Real(1.0 / 3.0),
            Cell::Real(1e-9),
            Cell::Text("not-plain".into()),
            Cell::Text("deep-pn".into()),
            Cell::Text("plain".into()),
            Cell::Bool(true),
            Cell::Int(64),
            Cell::Bool(false),
            Cell::Text("a1".into()),
        ]
    );
    assert_eq!(t.rows[1][2], Cell::Real(f64::INFINITY));
    assert_eq!(t.rows[1][3], Cell::Missing);
    assert_eq!(t.rows[1][9], Cell::Missing);
    assert_eq!(t.rows[1][10], Cell::Missing);
}

#[test]
fn rows_read_back_with_the_csv_reader_are_the_same_values() {
    let t = Table::new("sample.csv", &samples()).unwrap();
    assert_round_trip(&t);
}

#[test]
fn a_quoted_cell_survives_commas_quotes_and_line_breaks() {
    let note = "b, c; say \"hi\"\r\nthen go\n";
    let rows = [Sample {
        note: note.into(),
        ..Default::default()
    }];
    let t = Table::new("q.csv", &rows).unwrap();
    let mut reader = csv::Reader::from_reader(t.csv.as_bytes());
    let record = reader.records().next().unwrap().unwrap();
    assert_eq!(&record[7], note);
    assert_eq!(t.rows[0][7], Cell::Text(note.into()));
}

#[test]
fn an_empty_table_still_has_its_header() {
    let t = Table::new("empty.csv", &Vec::<Sample>::new()).unwrap();
    assert_eq!(
        t.csv,
        "count,delta,R,ratio,eps,kind,word,note,done,budget,wins,move\n"
    );
    assert!(t.rows.is_empty());
}

#[test]
fn a_field_that_is_not_one_value_is_refused() {
    #[derive(Default, serde::Serialize)]
    struct Nested {
        list: Vec<u32>,
    }
    let e = Table::new("n.csv", &[Nested { list: vec![1] }]).unwrap_err();
    assert!(e.to_string().contains("not a list"), "{e}");
}
