//! A timeline export running in the window: each frame shows the next step of the range
//! (a seek), and once it is drawn the window's pixels go to the writer.

use super::writer::{flip_rows, FrameWriter};
use std::path::PathBuf;

/// GIF or PNG sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Gif,
    PngSequence,
}

/// What the export window asks for: steps `from..=to`, every `every`-th, to `out` (a `.gif`
/// file or a folder of PNGs).
#[derive(Clone, Debug, PartialEq)]
pub struct ExportRequest {
    pub from: u64,
    pub to: u64,
    pub every: u64,
    pub format: Format,
    pub out: PathBuf,
}

impl ExportRequest {
    /// The steps shown, in order.
    pub fn steps(&self) -> Vec<u64> {
        let (a, b) = (self.from.min(self.to), self.from.max(self.to));
        (a..=b).step_by(self.every.max(1) as usize).collect()
    }

    /// GIF frame delay for a world stepping `dt` seconds: the range plays at real speed
    /// (rounded to hundredths, at least 2).
    pub fn delay_cs(&self, dt: f32) -> u16 {
        (100.0 * dt * self.every.max(1) as f32).round().clamp(2.0, 6000.0) as u16
    }
}

/// An export under way.
pub struct ExportJob {
    steps: Vec<u64>,
    next: usize,
    request: ExportRequest,
    delay_cs: u16,
    writer: Option<FrameWriter>,
}

impl ExportJob {
    pub fn new(request: ExportRequest, dt: f32) -> ExportJob {
        ExportJob { steps: request.steps(), next: 0, delay_cs: request.delay_cs(dt), request, writer: None }
    }

    /// The step this frame shows, while frames are left.
    pub fn step(&self) -> Option<u64> {
        self.steps.get(self.next).copied()
    }

    /// Takes the drawn frame (RGBA rows bottom first, as the window gives them). Returns the
    /// finished report once the last frame is written, or an error that ends the export.
    pub fn capture(&mut self, mut rgba: Vec<u8>, width: u32, height: u32) -> Result<Option<String>, String> {
        flip_rows(&mut rgba, width, height);
        if self.writer.is_none() {
            self.writer = Some(match self.request.format {
                Format::Gif => FrameWriter::gif(&self.request.out, width, height, self.delay_cs)?,
                Format::PngSequence => FrameWriter::png_sequence(&self.request.out)?,
            });
        }
        let w = self.writer.as_mut().expect("made above");
        w.push(&mut rgba, width, height)?;
        self.next += 1;
        if self.next < self.steps.len() {
            return Ok(None);
        }
        let w = self.writer.take().expect("made above");
        let target = w.target().display().to_string();
        let n = w.finish();
        Ok(Some(format!("Exported {n} frames ({width}×{height}) to {target}")))
    }

    /// "Exporting 12 / 60".
    pub fn progress(&self) -> String {
        format!("Exporting frame {} / {} …", self.next + 1, self.steps.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_gives_its_steps_and_a_real_speed_delay() {
        let r = ExportRequest { from: 10, to: 4, every: 3, format: Format::Gif, out: "x.gif".into() };
        assert_eq!(r.steps(), vec![4, 7, 10]);
        assert_eq!(r.delay_cs(1.0 / 60.0), 5);
        let one = ExportRequest { every: 1, ..r };
        assert_eq!(one.delay_cs(1.0 / 60.0), 2);
    }
}
