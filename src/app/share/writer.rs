//! Frames written as an animated GIF (the `gif` crate: each frame quantized to its own 256
//! colour palette by NeuQuant) or as a numbered PNG sequence (`frame_0000.png` ...). Frames
//! are written as they come, so a long export holds one frame in memory.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// NeuQuant's sampling factor for GIF palettes: 1 is the best and slowest, 30 the fastest.
const GIF_QUANTIZE_SPEED: i32 = 10;

/// Where frames go.
pub enum FrameWriter {
    Gif { encoder: gif::Encoder<BufWriter<File>>, size: (u16, u16), delay_cs: u16, path: PathBuf, frames: usize },
    Png { dir: PathBuf, size: Option<(u32, u32)>, frames: usize },
}

impl FrameWriter {
    /// An animated GIF of `width × height` frames shown `delay_cs` hundredths of a second
    /// each (at least 2: most viewers show shorter delays as 10), looping.
    pub fn gif(path: &Path, width: u32, height: u32, delay_cs: u16) -> Result<FrameWriter, String> {
        let size = (to_u16(width)?, to_u16(height)?);
        let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut encoder = gif::Encoder::new(BufWriter::new(file), size.0, size.1, &[])
            .map_err(|e| format!("{}: {e}", path.display()))?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(FrameWriter::Gif { encoder, size, delay_cs: delay_cs.max(2), path: path.to_path_buf(), frames: 0 })
    }

    /// A PNG sequence in the folder `dir` (made if missing).
    pub fn png_sequence(dir: &Path) -> Result<FrameWriter, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(FrameWriter::Png { dir: dir.to_path_buf(), size: None, frames: 0 })
    }

    /// Adds a frame of RGBA pixels, rows top first. Every frame must have the first one's
    /// size.
    pub fn push(&mut self, rgba: &mut [u8], width: u32, height: u32) -> Result<(), String> {
        if rgba.len() != width as usize * height as usize * 4 {
            return Err(format!("a {width}×{height} frame needs {} bytes, not {}", width * height * 4, rgba.len()));
        }
        match self {
            FrameWriter::Gif { encoder, size, delay_cs, path, frames } => {
                if (to_u16(width)?, to_u16(height)?) != *size {
                    return Err(format!("frame {frames} is {width}×{height}, the GIF {}×{}", size.0, size.1));
                }
                let mut frame = gif::Frame::from_rgba_speed(size.0, size.1, rgba, GIF_QUANTIZE_SPEED);
                frame.delay = *delay_cs;
                encoder.write_frame(&frame).map_err(|e| format!("{}: {e}", path.display()))?;
                *frames += 1;
            }
            FrameWriter::Png { dir, size, frames } => {
                if size.is_some_and(|s| s != (width, height)) {
                    return Err(format!("frame {frames} is {width}×{height}, not the first frame's size"));
                }
                *size = Some((width, height));
                let path = dir.join(format!("frame_{:04}.png", *frames));
                write_png(&path, rgba, width, height)?;
                *frames += 1;
            }
        }
        Ok(())
    }

    pub fn frames(&self) -> usize {
        match self {
            FrameWriter::Gif { frames, .. } | FrameWriter::Png { frames, .. } => *frames,
        }
    }

    /// Where the frames go (the GIF file or the PNG folder).
    pub fn target(&self) -> &Path {
        match self {
            FrameWriter::Gif { path, .. } => path,
            FrameWriter::Png { dir, .. } => dir,
        }
    }

    /// Ends the file (the GIF's trailer is written when its encoder is dropped).
    pub fn finish(self) -> usize {
        self.frames()
    }
}

fn to_u16(v: u32) -> Result<u16, String> {
    u16::try_from(v).map_err(|_| format!("{v} pixels is wider than a GIF can be"))
}

/// Writes one RGBA image, rows top first, as a PNG.
pub fn write_png(path: &Path, rgba: &[u8], width: u32, height: u32) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = File::create(path).map_err(|e| err(&e))?;
    let mut enc = png::Encoder::new(BufWriter::new(file), width, height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| err(&e))?;
    w.write_image_data(rgba).map_err(|e| err(&e))
}

/// Turns rows bottom first (OpenGL's order) into rows top first, in place.
pub fn flip_rows(rgba: &mut [u8], width: u32, height: u32) {
    let row = width as usize * 4;
    for y in 0..height as usize / 2 {
        let (top, bottom) = rgba.split_at_mut((height as usize - 1 - y) * row);
        top[y * row..(y + 1) * row].swap_with_slice(&mut bottom[..row]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tmp/share_tests").join(name);
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A frame: left half red, right half a grey that changes with `k`.
    fn frame(w: u32, h: u32, k: u8) -> Vec<u8> {
        (0..w * h).flat_map(|i| if i % w < w / 2 { [255, 0, 0, 255] } else { [k, k, k, 255] }).collect()
    }

    #[test]
    fn a_gif_decodes_to_its_frames() {
        let path = tmp("gif").join("a.gif");
        let (w, h) = (37, 20);
        let mut out = FrameWriter::gif(&path, w, h, 3).unwrap();
        for k in 0..5 {
            out.push(&mut frame(w, h, 40 * k), w, h).unwrap();
        }
        assert!(out.push(&mut frame(w, h + 1, 0), w, h + 1).is_err());
        assert_eq!(out.finish(), 5);
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::RGBA);
        let mut d = opts.read_info(File::open(&path).unwrap()).unwrap();
        let mut n = 0;
        while let Some(f) = d.read_next_frame().unwrap() {
            assert_eq!((f.width, f.height, f.delay), (w as u16, h as u16, 3));
            let px = |x: usize, y: usize| &f.buffer[(y * w as usize + x) * 4..][..3];
            assert_eq!(px(2, 5), [255, 0, 0]);
            let g = px(30, 5)[0] as i32;
            assert!((g - 40 * n).abs() <= 8, "frame {n}: grey {g}");
            n += 1;
        }
        assert_eq!(n, 5);
    }

    #[test]
    fn a_png_sequence_numbers_its_frames() {
        let dir = tmp("png").join("frames");
        let mut out = FrameWriter::png_sequence(&dir).unwrap();
        for k in 0..3 {
            out.push(&mut frame(8, 4, k), 8, 4).unwrap();
        }
        assert_eq!(out.finish(), 3);
        for k in 0..3 {
            let img = image::open(dir.join(format!("frame_{k:04}.png"))).unwrap().to_rgba8();
            assert_eq!((img.width(), img.height()), (8, 4));
            assert_eq!(img.get_pixel(7, 0).0, [k, k, k, 255]);
        }
    }

    #[test]
    fn flipping_reverses_the_rows() {
        let mut v: Vec<u8> = (0..3u8).flat_map(|r| [r; 8]).collect();
        flip_rows(&mut v, 2, 3);
        assert_eq!(v, (0..3u8).rev().flat_map(|r| [r; 8]).collect::<Vec<_>>());
    }
}
