//! Text as the user reads it: position notes and help reflowed to the
//! panel's width. Files wrap their notes by hand at some column; shown
//! as-is they wrap a second time, raggedly. Here a blank line separates
//! paragraphs, a single line break is a space, and a line that starts a
//! list item (`- `, `* `, `1. `) starts a new line.

/// The paragraphs of `text`, each one line (list items stay separate).
pub fn reflow(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, out: &mut Vec<String>| {
        if !current.is_empty() {
            out.push(std::mem::take(current));
        }
    };
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() {
            flush(&mut current, &mut out);
            continue;
        }
        if starts_list_item(t) {
            flush(&mut current, &mut out);
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(t);
    }
    flush(&mut current, &mut out);
    out
}

fn starts_list_item(t: &str) -> bool {
    if t.starts_with("- ") || t.starts_with("* ") || t.starts_with("• ") {
        return true;
    }
    let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
    digits > 0 && t[digits..].starts_with(". ")
}

/// Draws notes as reflowed, wrapping paragraphs in the weak text colour.
pub fn notes(ui: &mut egui::Ui, text: &str) {
    for p in reflow(text) {
        ui.add(egui::Label::new(egui::RichText::new(p).weak()).wrap());
    }
}

#[cfg(test)]
mod tests {
    use super::reflow;

    #[test]
    fn single_breaks_join_blank_lines_separate_and_list_items_stay_apart() {
        let text = "The first paragraph was\nwrapped by hand\n  at some column.\n\n\
                    Second one.\n- item one\n  continues\n- item two\n2. numbered\n\n\n";
        assert_eq!(
            reflow(text),
            vec![
                "The first paragraph was wrapped by hand at some column.",
                "Second one.",
                "- item one continues",
                "- item two",
                "2. numbered",
            ]
        );
        assert!(reflow("").is_empty());
        assert!(reflow("\n \n").is_empty());
    }
}
