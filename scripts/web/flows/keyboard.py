"""The keyboard alone, for the flows. Keys go to whatever has focus, as a keyboard sends them
(WebDriver's actions), never to an element the test picked: a control counts as usable only
if Tab reaches it in the page's own order and its keys work there. (An element's send_keys
would focus it first, and on some inputs, a colour input for one, set its value instead of
pressing keys.)"""
from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

TAB, SPACE, ENTER = Keys.TAB, Keys.SPACE, Keys.ENTER


def keys(run, *pressed: str) -> None:
    """Presses keys (or types text) on the focused element."""
    ActionChains(run.driver).send_keys(*pressed).perform()


def shift_tab(run) -> None:
    ActionChains(run.driver).key_down(Keys.SHIFT).send_keys(TAB).key_up(Keys.SHIFT).perform()


def select_all(run) -> None:
    ActionChains(run.driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()


def focused(run, css: str) -> bool:
    return run.driver.execute_script("const a = document.activeElement; return !!a && a !== document.body && a.matches(arguments[0])", css)


def from_top(run) -> None:
    """The next Tab starts at the top of the page, as on a fresh load. (Blurring is not enough:
    Chromium then goes on from the element that had focus.)"""
    run.driver.execute_script(
        "const b = document.body; b.tabIndex = -1; b.focus({preventScroll: true}); b.removeAttribute('tabindex'); window.scrollTo(0, 0);")


def tab_to(run, css: str, backwards: bool = False, limit: int = 80, what: str | None = None) -> bool:
    """Tab (Shift+Tab when `backwards`) from where focus is until `css` has it, within `limit`
    presses; there, the focus must be drawn (an outline). `what` names the check."""
    way = "Shift+Tab" if backwards else "Tab"
    for _ in range(limit):
        if backwards:
            shift_tab(run)
        else:
            keys(run, TAB)
        outline = run.driver.execute_script(
            "const a = document.activeElement; if (!a || a === document.body || !a.matches(arguments[0])) return null;"
            "const s = getComputedStyle(a); return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0", css)
        if outline is not None:
            return run.check(outline, f"{what or css + ' is reached by ' + way}, its focus drawn")
    return run.check(False, f"{what or css + ' is reached by ' + way} within {limit} presses (page {run.driver.current_url})")


def press(run, css: str, key: str = ENTER, limit: int = 80) -> bool:
    """Tabs from the top of the page to `css` and presses `key` there."""
    from_top(run)
    if tab_to(run, css, limit=limit):
        keys(run, key)
        return True
    return False


def type_into(run, css: str, text: str, limit: int = 80) -> bool:
    """Tabs from the top to a field and replaces what it holds by typing."""
    from_top(run)
    return tab_to(run, css, limit=limit) and retype(run, text)


def retype(run, text: str) -> bool:
    """Replaces what the focused field holds by typing."""
    select_all(run)
    keys(run, Keys.DELETE, text)
    return True
