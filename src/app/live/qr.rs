//! The join address as a QR code on the projector: phones in the room
//! point their camera at it instead of typing the address.

use egui::{Color32, Rect, Sense, Vec2};
use qrcodegen::{QrCode, QrCodeEcc};

/// The code's modules (true = dark), row by row, with its side length;
/// `None` when the text is too long for a QR code.
pub fn modules(text: &str) -> Option<(usize, Vec<bool>)> {
    let code = QrCode::encode_text(text, QrCodeEcc::Medium).ok()?;
    let n = code.size();
    let cells = (0..n)
        .flat_map(|y| (0..n).map(move |x| (x, y)))
        .map(|(x, y)| code.get_module(x, y))
        .collect();
    Some((n as usize, cells))
}

/// Draws the QR code of `text`, `side` points square, dark on white with
/// the quiet zone the standard asks for (four modules).
pub fn qr_ui(ui: &mut egui::Ui, text: &str, side: f32) {
    let Some((n, cells)) = modules(text) else {
        ui.label("(the address is too long for a QR code)");
        return;
    };
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::WHITE);
    let module = side / (n + 8) as f32;
    for (i, dark) in cells.iter().enumerate() {
        if *dark {
            let (x, y) = ((i % n + 4) as f32, (i / n + 4) as f32);
            let min = rect.min + Vec2::new(x * module, y * module);
            painter.rect_filled(
                Rect::from_min_size(min, Vec2::splat(module + 0.3)),
                0.0,
                Color32::BLACK,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::modules;

    #[test]
    fn a_join_address_fits_a_small_code_with_its_finder_patterns() {
        let (n, cells) = modules("http://192.168.100.200:8080/?join=K7P2QX").unwrap();
        // Version 3 (29 modules) holds 42 bytes at level M; version 4, 62.
        assert!((29..=33).contains(&n), "side {n}");
        // The three finder patterns: a dark 7×7 ring at three corners.
        for (x0, y0) in [(0, 0), (n - 7, 0), (0, n - 7)] {
            for k in 0..7 {
                assert!(
                    cells[y0 * n + x0 + k],
                    "top edge of the finder at {x0},{y0}"
                );
                assert!(
                    cells[(y0 + k) * n + x0],
                    "left edge of the finder at {x0},{y0}"
                );
            }
            assert!(!cells[(y0 + 1) * n + x0 + 1], "the finder's light ring");
        }
    }
}
