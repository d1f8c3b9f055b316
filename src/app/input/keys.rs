//! The keyboard shortcuts, in one table: the window turns key presses into actions with it
//! (`key_action`) and the buttons show their keys from it (`label`, `tip`, `button`), so a
//! button and its key always agree.

use crate::app::files::DialogKind;
use crate::app::state::Action;
use crate::app::timeline::TimelineAction as T;
use crate::app::tools::ray::RayAction;
use crate::app::tools::ruler::RulerAction;
use crate::app::tools::shape_cast::ShapeCastAction;
use crate::app::tools::slice::SliceAction;
use crate::app::tools::ToolAction;
use egui_macroquad::egui;
use macroquad::miniquad::{KeyCode, KeyMods};

/// The modifiers a binding asks for. `Plain` keys take no Ctrl, Alt or Super, and Shift only
/// when no `Shift` binding of the same key exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mods {
    Plain,
    Shift,
    Ctrl,
    CtrlShift,
}

/// One shortcut: the key, its modifiers, how a hint spells it (in words the panels' font
/// draws: it has no arrow glyphs) and what it does.
pub struct Binding {
    pub key: KeyCode,
    pub mods: Mods,
    pub label: &'static str,
    pub action: Action,
}

const fn bind(key: KeyCode, mods: Mods, label: &'static str, action: Action) -> Binding {
    Binding { key, mods, label, action }
}

/// Every keyboard shortcut of the app.
pub const BINDINGS: &[Binding] = &[
    bind(KeyCode::Space, Mods::Plain, "Space", Action::TogglePlay),
    bind(KeyCode::Period, Mods::Plain, ".", Action::Step),
    bind(KeyCode::S, Mods::Plain, "S", Action::Step),
    bind(KeyCode::B, Mods::Plain, "B", Action::StepBack),
    bind(KeyCode::Backspace, Mods::Plain, "Backspace", Action::StepBack),
    bind(KeyCode::R, Mods::Plain, "R", Action::Restart),
    bind(KeyCode::F, Mods::Plain, "F", Action::FrameAll),
    bind(KeyCode::Home, Mods::Plain, "Home", Action::Timeline(T::SeekStart)),
    bind(KeyCode::End, Mods::Plain, "End", Action::Timeline(T::SeekEnd)),
    bind(KeyCode::Left, Mods::Plain, "Left", Action::Timeline(T::SeekBy(-1))),
    bind(KeyCode::Left, Mods::Shift, "Shift+Left", Action::Timeline(T::SeekBy(-10))),
    bind(KeyCode::Right, Mods::Plain, "Right", Action::Timeline(T::SeekBy(1))),
    bind(KeyCode::Right, Mods::Shift, "Shift+Right", Action::Timeline(T::SeekBy(10))),
    bind(KeyCode::K, Mods::Plain, "K", Action::Tool(ToolAction::Slice(SliceAction::Toggle))),
    bind(KeyCode::Y, Mods::Plain, "Y", Action::Tool(ToolAction::Ray(RayAction::Toggle))),
    bind(KeyCode::J, Mods::Plain, "J", Action::Tool(ToolAction::ShapeCast(ShapeCastAction::Toggle))),
    bind(KeyCode::M, Mods::Plain, "M", Action::Tool(ToolAction::Ruler(RulerAction::Toggle))),
    bind(KeyCode::Escape, Mods::Plain, "Esc", Action::Unpin),
    bind(KeyCode::O, Mods::Ctrl, "Ctrl+O", Action::ShowDialog(DialogKind::Open)),
    bind(KeyCode::S, Mods::Ctrl, "Ctrl+S", Action::SaveCurrent),
    bind(KeyCode::S, Mods::CtrlShift, "Ctrl+Shift+S", Action::ShowDialog(DialogKind::SaveAs)),
];

/// The action of a key pressed with `mods`, if it is a shortcut. Keys with Ctrl or Alt held
/// are left alone (Ctrl+drag never steps the world), but for the Ctrl shortcuts.
pub fn key_action(key: KeyCode, mods: KeyMods) -> Option<Action> {
    let wanted: &[Mods] = match (mods.ctrl, mods.alt || mods.logo, mods.shift) {
        (true, false, true) => &[Mods::CtrlShift],
        (true, false, false) => &[Mods::Ctrl],
        (false, false, true) => &[Mods::Shift, Mods::Plain],
        (false, false, false) => &[Mods::Plain],
        (_, true, _) => &[],
    };
    wanted.iter().find_map(|&m| BINDINGS.iter().find(|b| b.key == key && b.mods == m)).map(|b| b.action.clone())
}

/// The keys of `action`, as a hint spells them (". or S"); `None` if it has none.
pub fn hint(action: &Action) -> Option<String> {
    let keys: Vec<&str> = BINDINGS.iter().filter(|b| b.action == *action).map(|b| b.label).collect();
    (!keys.is_empty()).then(|| keys.join(" or "))
}

/// A button's text with its keys: "Restart (R)".
pub fn label(text: &str, action: &Action) -> String {
    match hint(action) {
        Some(keys) => format!("{text} ({keys})"),
        None => text.to_owned(),
    }
}

/// A tooltip saying what a button does and its keys: "one step back (B or Backspace)".
pub fn tip(what: &str, action: &Action) -> String {
    label(what, action)
}

/// A button whose tooltip says what it does and its keys, for each `(what, action)` of `tips`
/// (shown disabled too, so the keys can be learnt); a click pushes the first action.
pub fn button(
    ui: &mut egui::Ui,
    text: impl Into<egui::WidgetText>,
    tips: &[(&str, &Action)],
    enabled: bool,
    out: &mut Vec<Action>,
) -> egui::Response {
    let text_of_tip: Vec<String> = tips.iter().map(|(what, a)| tip(what, a)).collect();
    let tip = text_of_tip.join(" · ");
    let resp = ui.add_enabled(enabled, egui::Button::new(text)).on_hover_text(&tip).on_disabled_hover_text(&tip);
    if resp.clicked() {
        out.extend(tips.first().map(|(_, a)| (*a).clone()));
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tools::ray::RayAction;

    fn mods(shift: bool, ctrl: bool, alt: bool) -> KeyMods {
        KeyMods { shift, ctrl, alt, logo: false }
    }

    #[test]
    fn every_binding_is_what_its_key_does_and_no_key_is_bound_twice() {
        for (i, b) in BINDINGS.iter().enumerate() {
            let (shift, ctrl) = match b.mods {
                Mods::Plain => (false, false),
                Mods::Shift => (true, false),
                Mods::Ctrl => (false, true),
                Mods::CtrlShift => (true, true),
            };
            assert_eq!(key_action(b.key, mods(shift, ctrl, false)), Some(b.action.clone()), "{}", b.label);
            assert!(hint(&b.action).is_some_and(|h| h.contains(b.label)), "{}", b.label);
            let twice = BINDINGS[..i].iter().any(|o| o.key == b.key && o.mods == b.mods);
            assert!(!twice, "{} is bound twice", b.label);
        }
    }

    #[test]
    fn modifiers_choose_or_refuse() {
        // Shift on a plain key keeps it; Shift on an arrow moves ten steps.
        assert_eq!(key_action(KeyCode::Space, mods(true, false, false)), Some(Action::TogglePlay));
        assert_eq!(key_action(KeyCode::Left, mods(true, false, false)), Some(Action::Timeline(T::SeekBy(-10))));
        // Ctrl or Alt with a plain key does nothing (Ctrl+drag rotates, it never steps).
        assert_eq!(key_action(KeyCode::Period, mods(false, true, false)), None);
        assert_eq!(key_action(KeyCode::S, mods(false, false, true)), None);
        assert_eq!(key_action(KeyCode::O, mods(false, false, false)), None);
        assert_eq!(key_action(KeyCode::Q, mods(false, false, false)), None);
        assert_eq!(hint(&Action::Step).as_deref(), Some(". or S"));
        assert_eq!(label("Restart", &Action::Restart), "Restart (R)");
        assert_eq!(label("Clear", &Action::from(RayAction::Clear)), "Clear");
    }
}
