#!/usr/bin/python3
"""spec/browser_test.py: boardscript serve in a real browser.

Starts `boardscript serve --port 0`, opens its page in headless Chromium
(Debian's chromium + chromium-driver, driven by python3-selenium), and plays
whole games by clicking: 6 x 6 Reversi against greedy, and a 2 x 2 Dots and
Boxes against dots_search by clicking edges. After every move it checks the
page against the engine's own view of the game (the API): the discs on the
board, the side to move, the move list, the cells the last move turned; at
the end, the result banner, and the record the page downloads replays to
the same result. Then each point of issue 31: a typed and a refused move; a
forced pass announced beside the board and `pass` typed; flips marked (the
page's marks against the colours seen before and after) and animated only
without prefers-reduced-motion; move values shown equal to the API's; a
second tab that refreshes and plays; keyboard-only play; a Breakthrough step
by two clicks; the rules text; the sidebar following a loaded game; resign;
a study stepped by buttons, keys and its move list, and played on from a
position; a watched match with pause; a contrast check of the markers
(computed colours, >= 3:1); on a phone, the board scrolled into view with
the focus on it and dots edges split at their middle with 44 px targets.
Screenshots go to BUILD/serve-*.png (or the directory in $SCREENSHOTS).

Exit status 0: passed; 77: skipped (no chromium, chromedriver or selenium:
ctest shows it as skipped, with the reason on the first line); 1: failed.
"""
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

SKIP = 77


def skip(why):
    print(f"SKIPPED: {why} (scripts/bootstrap installs chromium, chromium-driver and python3-selenium)")
    sys.exit(SKIP)


try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import Select
    from selenium.webdriver.support.ui import WebDriverWait
    from selenium.common.exceptions import (ElementClickInterceptedException, NoSuchElementException,
                                            StaleElementReferenceException)
except ImportError:
    skip("python3-selenium is not installed")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    skip("chromium or chromedriver is not installed")

BIN = os.environ.get("BOARDSCRIPT_BIN") or os.path.join(os.path.dirname(__file__), "..", "build", "boardscript")
# Seconds a wait for the page to show what the server answered may take:
# generous, as the sanitizer build's server answers slowly beside the other tests.
WAIT = 30
SHOTS = os.path.abspath(os.environ.get("SCREENSHOTS") or os.path.dirname(os.path.abspath(BIN)))


def start_server():
    proc = subprocess.Popen([BIN, "serve", "--port", "0", "--seed", "11"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    line = proc.stdout.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
    if not m:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, m.group(1)


def api(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return json.loads(r.read().decode())


def fetch(base, path):
    with urllib.request.urlopen(base + path, timeout=30) as r:
        return r.read().decode()


def browser(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    service = webdriver.ChromeService(executable_path=DRIVER) if hasattr(webdriver, "ChromeService") \
        else webdriver.chrome.service.Service(executable_path=DRIVER)
    return webdriver.Chrome(service=service, options=options)


def game_id(driver):
    m = re.search(r"[?&]game=(\d+)", driver.current_url)
    return m and m.group(1)


def post(base, path, body):
    req = urllib.request.Request(base + path, method="POST", data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read().decode())


def click(driver, css):
    """Clicks the element `css` finds, again if the page redrew it meanwhile."""
    def clicked(d):
        try:
            el = d.find_element(By.CSS_SELECTOR, css)
            d.execute_script("arguments[0].scrollIntoView({block: 'center'})", el)
            el.click()
            return True
        except (StaleElementReferenceException, NoSuchElementException, ElementClickInterceptedException):
            return False
    WebDriverWait(driver, 10, poll_frequency=0.05).until(clicked)


def screenshot(driver, name):
    driver.execute_script("document.getElementById('play').scrollIntoView()")
    time.sleep(0.6)  # the turned discs' animation over
    driver.save_screenshot(os.path.join(SHOTS, name))


def shown_log(driver):
    """The move list as shown, read in one script call: the page may redraw it between a find and a read
    (a poll that lands then), which made a stale element end a wait at once."""
    return driver.execute_script(
        'return Array.from(document.querySelectorAll("#log button.ply"), (b) => b.innerText.trim());')


def settled(driver, base, want=None):
    """Waits until the page shows a game where a human is to move or that is over (or `want(view)`); returns the API's view."""
    view = {}

    def ready(_):
        nonlocal view
        gid = game_id(driver)
        if not gid:
            return False
        view = api(base, f"api/games/{gid}")
        if want is not None:
            if not want(view):
                return False
        elif not (view["finished"] or view["human_to_move"]):
            return False
        shown = driver.find_element(By.TAG_NAME, "body").get_attribute("data-game")
        return shown == f"{view['id']}:{view['version']}" and shown_log(driver) == view["log"]
    WebDriverWait(driver, 60, poll_frequency=0.05).until(ready)
    return view


def colours(driver):
    """The discs on the page: { cell: "black" | "white" }."""
    out = {}
    for el in driver.find_elements(By.CSS_SELECTOR, "#board circle.disc"):
        cls = el.get_attribute("class").split()
        out[el.get_attribute("data-cell")] = "black" if "black" in cls else "white"
    return out


def flipped(driver):
    return sorted(el.get_attribute("data-cell") for el in driver.find_elements(By.CSS_SELECTOR, "#board circle.disc.flipped"))


def check_page(driver, view, failures):
    status = driver.find_element(By.ID, "status").text
    if view["finished"]:
        banner = driver.find_element(By.ID, "banner")
        if not status.startswith("Game over") or banner.is_displayed() == bool(view.get("match")):
            failures.append(f"finished game, status {status!r}, banner shown: {banner.is_displayed()}")
    elif view["side_name"] not in status.split(" · ")[0]:
        failures.append(f"status {status!r}, {view['side_name']} is to move")
    elif view["must_pass"] and "has no legal move: pass" not in status:
        failures.append(f"status {status!r}: a forced pass is not announced")
    # the move list: each move in its player's column
    columns = driver.execute_script(
        "return [...document.querySelectorAll('#log button.ply')].map(b => b.parentElement.cellIndex)")
    if view.get("log_sides") and columns:
        want = [1 if side == str(view["sides"][0]) else 2 for side in view["log_sides"]]
        if columns != want:
            failures.append(f"move list: columns {columns}, the players' {want}")
    if view["rules"] != "dots":
        black = len(driver.find_elements(By.CSS_SELECTOR, "#board circle.disc.black"))
        white = len(driver.find_elements(By.CSS_SELECTOR, "#board circle.disc.white"))
        if [black, white] != view["score"]:
            failures.append(f"page shows {black}-{white} discs, the engine {view['score']}")
        if view.get("last") and not view["last"]["pass"] and flipped(driver) != sorted(view["last"]["changed"]):
            failures.append(f"marked {flipped(driver)}, the last move changed {view['last']['changed']}")


def banner_expected(view, human):
    if view["winner"] == "draw":
        return "draw"
    return "You won" if view["winner"] == human else "You lost"


def play_reversi(driver, base, failures):
    driver.get(base + "?rules=reversi&size=6&white=greedy")
    view = settled(driver, base)
    if Select(driver.find_element(By.ID, "white-level")).first_selected_option.text != "Easy (greedy)":
        failures.append("the white seat does not show the level of greedy")
    # a refused move shows its reason; the game is unchanged
    box = driver.find_element(By.ID, "move")
    box.send_keys("a1", Keys.ENTER)
    WebDriverWait(driver, WAIT).until(lambda d: "not a legal move" in d.find_element(By.ID, "message").text)
    # a typed move (keyboard play)
    box.send_keys(view["moves"][0], Keys.ENTER)
    view = settled(driver, base)
    check_page(driver, view, failures)
    moves = 1
    while not view["finished"]:
        if view["moves"]:
            cell = view["moves"][moves % len(view["moves"])]
            click(driver, f'#board rect.cell[data-cell="{cell}"]')
        else:
            if not driver.find_element(By.ID, "passbar").is_displayed():
                failures.append("a forced pass without the Pass button shown")
            click(driver, "#pass")
        moves += 1
        view = settled(driver, base)
        check_page(driver, view, failures)
        if moves == 6:
            screenshot(driver, "serve-reversi.png")
    banner = driver.find_element(By.ID, "banner").text
    if banner_expected(view, "black") not in banner:
        failures.append(f"banner {banner!r}: black (the human) {view['winner']}")
    record = fetch(base, f"api/games/{view['id']}/record")
    play_reversi.record = record
    played = [line.split(" ", 1)[1] if line.startswith("move ") else "pass"
              for line in record.splitlines() if line.startswith("move ") or line == "pass"]
    if played != view["log"]:
        failures.append("the record's moves are not the game's")
    if f"result {view['result']}" not in record:
        failures.append("the record's result is not the game's")
    return moves


# Black has no legal move after these moves of 8 x 8 Reversi (found by random play).
TO_PASS = ["f5", "f6", "c4", "g5", "h5", "h4", "f7", "h6"]


def forced_pass(driver, base, failures):
    """A prepared position where the human must pass: announced, the button beside the board, `pass` typed."""
    view = post(base, "api/games", {"rules": "reversi", "moves": TO_PASS, "players": {"black": "human", "white": "greedy"}})
    if not view["must_pass"]:
        failures.append("pass: the prepared position has a move")
    driver.get(base + f"?game={view['id']}")
    settled(driver, base)
    status = driver.find_element(By.ID, "status").text
    if not status.startswith("Black has no legal move: pass"):
        failures.append(f"pass: status {status!r}")
    bar = driver.find_element(By.ID, "passbar")
    top = driver.execute_script("return arguments[0].getBoundingClientRect().bottom <= window.innerHeight", bar)
    if not bar.is_displayed() or not top:
        failures.append("pass: the Pass button is not shown above the fold")
    board_top = driver.execute_script("return document.getElementById('board').getBoundingClientRect().top")
    bar_bottom = driver.execute_script("return arguments[0].getBoundingClientRect().bottom", bar)
    if bar_bottom > board_top + 1:
        failures.append("pass: the Pass button is not beside (above) the board")
    driver.find_element(By.ID, "move").send_keys("pass", Keys.ENTER)
    view = settled(driver, base, lambda v: len(v["log"]) >= len(TO_PASS) + 2)
    if view["log"][len(TO_PASS)] != "pass":
        failures.append(f"pass: `pass` typed was not played: {view['log']}")
    labels = [b.get_attribute("aria-label") for b in driver.find_elements(By.CSS_SELECTOR, "#log button.ply")]
    if f"move {len(TO_PASS) + 1}: Black pass" not in labels:
        failures.append(f"pass: the move list does not show Black's pass: {labels}")


def flips(driver, base, failures):
    """Human against human: the page marks exactly the discs whose colour changed, and animates them unless reduced motion is asked."""
    view = post(base, "api/games", {"rules": "reversi", "players": {"black": "human", "white": "human"}})
    driver.get(base + f"?game={view['id']}")
    view = settled(driver, base)
    checked = 0
    for ply in range(6):
        before = colours(driver)
        cell = view["moves"][(ply * 3) % len(view["moves"])]
        click(driver, f'#board rect.cell[data-cell="{cell}"]')
        view = settled(driver, base, lambda v, n=len(view["log"]) + 1: len(v["log"]) == n)
        after = colours(driver)
        turned = sorted(c for c in after if c != cell and before.get(c) not in (None, after[c]))
        if turned != flipped(driver) or not turned:
            failures.append(f"flips: {cell} turned {turned}, the page marks {flipped(driver)}")
        shown = driver.find_element(By.ID, "lastmove").text
        if f"played {cell} and turned {len(turned)} piece" not in shown:
            failures.append(f"flips: the last move says {shown!r}")
        checked += 1
    disc = driver.find_element(By.CSS_SELECTOR, "#board circle.disc.flipped")
    if driver.execute_script("return getComputedStyle(arguments[0]).animationName", disc) != "flip":
        failures.append("flips: a turned disc is not animated")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    disc = driver.find_element(By.CSS_SELECTOR, "#board circle.disc.flipped")
    if driver.execute_script("return getComputedStyle(arguments[0]).animationName", disc) != "none":
        failures.append("flips: animated though reduced motion is asked")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    return checked


def values(driver, base, failures):
    """The value of every legal move on the board, equal to the API's analysis."""
    view = post(base, "api/games", {"rules": "reversi", "moves": ["f5", "d6", "c3"],
                                    "players": {"black": "human", "white": "human"}})
    driver.get(base + f"?game={view['id']}")
    view = settled(driver, base)
    click(driver, "#values")
    WebDriverWait(driver, 30).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board text.value")) == len(view["moves"]))
    shown = {el.get_attribute("data-move"): el.text for el in driver.find_elements(By.CSS_SELECTOR, "#board text.value")}
    theirs = api(base, f"api/games/{view['id']}/analysis")
    want = {m["move"]: f"{math.floor(m['value'] * 10 + 0.5) / 10:g}" for m in theirs["moves"]}
    if shown != want:
        failures.append(f"values: the page shows {shown}, the API {want}")
    if set(shown) != set(view["moves"]):
        failures.append("values: not every legal move is valued")
    if not driver.find_element(By.ID, "evalbar").is_displayed():
        failures.append("values: no evaluation bar")
    screenshot(driver, "serve-analysis.png")
    click(driver, "#values")
    return len(shown)


def two_tabs(driver, base, failures):
    """A game open in two tabs: a move in one shows in the other, which can then play."""
    view = post(base, "api/games", {"rules": "reversi", "size": "6", "players": {"black": "human", "white": "human"}})
    url = base + f"?game={view['id']}"
    driver.get(url)
    view = settled(driver, base)
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(url)
    settled(driver, base)
    second = driver.current_window_handle
    driver.switch_to.window(first)
    click(driver, f'#board rect.cell[data-cell="{view["moves"][0]}"]')
    view = settled(driver, base, lambda v: len(v["log"]) == 1)
    driver.switch_to.window(second)
    try:
        WebDriverWait(driver, 15).until(lambda d: shown_log(d) == view["log"])
    except Exception as e:
        failures.append(f"two tabs: the second tab did not show the move made in the first ({type(e).__name__}: {e})")
        driver.close()
        driver.switch_to.window(first)
        return
    click(driver, f'#board rect.cell[data-cell="{view["moves"][0]}"]')
    view = settled(driver, base, lambda v: len(v["log"]) == 2)
    if "not a legal move" in driver.find_element(By.ID, "message").text:
        failures.append("two tabs: the second tab's move was refused")
    driver.close()
    driver.switch_to.window(first)
    try:
        WebDriverWait(driver, 15).until(lambda d: shown_log(d) == view["log"])
    except Exception as e:
        failures.append(f"two tabs: the first tab did not show the second's move ({type(e).__name__}: {e})")


def keyboard(driver, base, failures):
    """Keyboard only: Start, the focus lands on the board, arrows move it, Enter plays."""
    driver.get(base)
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#rules option"))
    Select(driver.find_element(By.ID, "white-level")).select_by_visible_text("Easy (greedy)")
    size = driver.find_element(By.ID, "size")
    size.clear()
    size.send_keys("6", Keys.ENTER)  # Enter in the form starts the game
    view = settled(driver, base)
    for turn in range(3):
        active = driver.switch_to.active_element
        here = active.get_attribute("data-cell")
        if not here:
            failures.append("keyboard: the focus is not on a cell of the board")
            return turn
        target = view["moves"][turn % len(view["moves"])]
        dx, dy = ord(target[0]) - ord(here[0]), int(target[1:]) - int(here[1:])
        keys = ([Keys.ARROW_RIGHT] * dx if dx > 0 else [Keys.ARROW_LEFT] * -dx) + \
            ([Keys.ARROW_DOWN] * dy if dy > 0 else [Keys.ARROW_UP] * -dy)
        ActionChains(driver).send_keys(*keys, Keys.ENTER).perform()
        n = len(view["log"])
        view = settled(driver, base, lambda v, n=n: len(v["log"]) > n and (v["finished"] or v["human_to_move"]))
        if view["log"][n] != target:
            failures.append(f"keyboard: played {view['log'][n]}, not {target}")
        label = driver.switch_to.active_element.get_attribute("aria-label") or ""
        if not re.match(r"^[a-z]\d+, ", label):
            failures.append(f"keyboard: the focused cell's label is {label!r}")
    return 3


def step_by_clicks(driver, base, failures):
    """Breakthrough: a piece clicked marks its targets; a target clicked plays the step."""
    view = post(base, "api/games", {"rules": "breakthrough", "players": {"black": "human", "white": "human"}})
    driver.get(base + f"?game={view['id']}")
    view = settled(driver, base)
    path = view["paths"][0]
    click(driver, f'#board rect.cell[data-cell="{path["cells"][0]}"]')
    targets = {p["cells"][1] for p in view["paths"] if p["cells"][0] == path["cells"][0]}
    marked = driver.execute_script(
        "return [...document.querySelectorAll('#board .target')].map(t => t.nextElementSibling && t.nextElementSibling.dataset.cell)")
    if set(marked) != targets:
        failures.append(f"breakthrough: marked {marked}, the targets are {sorted(targets)}")
    click(driver, f'#board rect.cell[data-cell="{path["cells"][1]}"]')
    view = settled(driver, base, lambda v: len(v["log"]) == 1)
    if view["log"] != [path["text"]]:
        failures.append(f"breakthrough: played {view['log']}, not {path['text']}")
    # Connect Four: a click anywhere in a column drops the piece to the bottom
    view = post(base, "api/games", {"rules": "connect4", "players": {"black": "human", "white": "human"}})
    driver.get(base + f"?game={view['id']}")
    view = settled(driver, base)
    click(driver, '#board rect.cell[data-cell="c1"]')
    view = settled(driver, base, lambda v: len(v["log"]) == 1)
    if view["log"] != ["c6"]:
        failures.append(f"connect4: a click in column c played {view['log']}, not c6")
    # Amazons: the queen, where it lands, then its arrow
    view = post(base, "api/games", {"rules": "amazons", "players": {"black": "human", "white": "human"}})
    driver.get(base + f"?game={view['id']}")
    view = settled(driver, base)
    path = view["paths"][len(view["paths"]) // 3]
    for cell in path["cells"]:
        click(driver, f'#board rect.cell[data-cell="{cell}"]')
    view = settled(driver, base, lambda v: len(v["log"]) == 1)
    if view["log"] != [path["text"]]:
        failures.append(f"amazons: clicked {path['cells']}, played {view['log']}, not {path['text']}")


def sidebar(driver, base, failures):
    """The rules text; a loaded game's settings in the form; options reset on a new rule set; resign."""
    rules = {r["name"]: r for r in api(base, "api/rules")["rules"]}
    view = post(base, "api/games", {"rules": "dots", "size": "2x3", "players": {"1": "human", "2": "dots_search"}})
    driver.get(base + f"?game={view['id']}")
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "rules").get_attribute("value") == "dots")
    if driver.find_element(By.ID, "size").get_attribute("value") != "2x3":
        failures.append("sidebar: the loaded game's size is not shown")
    if Select(driver.find_element(By.ID, "white-level")).first_selected_option.get_attribute("value") != "dots_search":
        failures.append("sidebar: the loaded game's player 2 is not shown")
    driver.find_element(By.CSS_SELECTOR, "#rulesinfo summary").click()
    if driver.find_element(By.ID, "rulestext").text.split() != rules["dots"]["description"].split():
        failures.append("sidebar: the rules text is not the rule set's description")
    status = driver.find_element(By.ID, "status").text
    if not status.startswith("Player 1 to move") or "Player 1 0, Player 2 0" not in status:
        failures.append(f"dots wording: status {status!r}")
    Select(driver.find_element(By.ID, "rules")).select_by_value("reversi")
    if driver.find_element(By.ID, "size").get_attribute("value") != "":
        failures.append("sidebar: the size stays when the rule set changes")
    click(driver, "#start")
    view = settled(driver, base, lambda v: v["rules"] == "reversi")
    click(driver, "#resign")
    click(driver, "#resign")
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "banner").is_displayed())
    if "You resigned. You lost" not in driver.find_element(By.ID, "banner").text:
        failures.append(f"resign: banner {driver.find_element(By.ID, 'banner').text!r}")


def study(driver, base, record_text, failures):
    """Opens a record with the file input, steps through it by buttons, arrow keys and its move list, asks for a suggestion, plays on from a position."""
    path = os.path.join(SHOTS, "browser-test-game.txt")
    with open(path, "w") as f:
        f.write(record_text)
    driver.find_element(By.ID, "studyfile").send_keys(path)
    click(driver, "#open")
    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "studybar").is_displayed())
    view = api(base, f"api/games/{game_id(driver)}")
    plies = view["study"]["plies"]
    steps = 0
    click(driver, "#first")
    for ply in range(0, min(plies, 8) + 1):
        WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "plylabel").text == f"move {ply} of {plies}")
        view = api(base, f"api/games/{game_id(driver)}")
        if view["study"]["ply"] != ply or len(view["log"]) != ply:
            failures.append(f"study: the page shows move {ply}, the engine {view['study']['ply']}")
        check_page(driver, view, failures)
        if ply % 2 == 0:
            click(driver, "#next")
        else:
            driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        steps += 1
    # the move list: a click goes to that move
    click(driver, '#log button.ply[data-ply="3"]')
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "plylabel").text == f"move 3 of {plies}")
    # the chart: a click on it goes to the move under it (a quarter of the way: that move)
    plot = driver.find_element(By.CSS_SELECTOR, "#board rect.plot")
    quarter = round(plies / 4)
    width = plot.size["width"]
    ActionChains(driver).move_to_element_with_offset(plot, -width / 2 + width * quarter / plies, 0).click().perform()
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "plylabel").text == f"move {quarter} of {plies}")
    click(driver, '#log button.ply[data-ply="3"]')
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "plylabel").text == f"move 3 of {plies}")
    click(driver, "#suggest")
    WebDriverWait(driver, 30).until(lambda d: "suggests" in d.find_element(By.ID, "hint").text)
    move = driver.find_element(By.ID, "hint").text.split()[-1]
    view = api(base, f"api/games/{game_id(driver)}")
    if move not in view["moves"]:
        failures.append(f"study: suggested {move}, not a legal move")
    if not driver.find_elements(By.CSS_SELECTOR, f'#board .hinted[data-cell="{move}"]'):
        failures.append("study: the suggested cell is not marked")
    contrast(driver, failures, "study")
    if "Evaluation" not in driver.find_element(By.ID, "board").get_attribute("innerHTML"):
        failures.append("study: no evaluation chart")
    screenshot(driver, "serve-study.png")
    studied = game_id(driver)
    click(driver, "#playfrom")
    WebDriverWait(driver, 20).until(lambda d: game_id(d) not in (None, studied))
    played = api(base, f"api/games/{game_id(driver)}")
    # the sidebar's players play on (an AI to move answers at once)
    if played["log"][:len(view["log"])] != view["log"] or played.get("study"):
        failures.append(f"study: played on from {played['log']}, not {view['log']}")
    os.remove(path)
    return steps


def watch(driver, base, failures):
    """Watches a 2-game match of 4 x 4 Reversi to its end: the page's lines are the engine's; pause stops it."""
    driver.get(base + "?rules=reversi&size=4")
    WebDriverWait(driver, WAIT).until(lambda d: game_id(d) is not None)
    first = game_id(driver)
    for id_, value in (("match-a", "greedy"), ("match-b", "random"), ("match-games", "2")):
        box = driver.find_element(By.ID, id_)
        box.clear()
        box.send_keys(value)
    click(driver, "#watch")
    WebDriverWait(driver, 20).until(lambda d: game_id(d) not in (None, first))
    Select(driver.find_element(By.ID, "speed")).select_by_visible_text("fast")
    click(driver, "#pause")
    held = api(base, f"api/games/{game_id(driver)}")["version"]
    time.sleep(1.5)
    if api(base, f"api/games/{game_id(driver)}")["version"] > held + 1:
        failures.append("match: it went on while paused")
    click(driver, "#pause")
    WebDriverWait(driver, 60, poll_frequency=0.1).until(
        lambda d: "the match is over" in d.find_element(By.ID, "matchlog").text)
    view = api(base, f"api/games/{game_id(driver)}")
    shown = driver.find_element(By.ID, "matchlog").text
    for line in view["match"]["lines"] + view["match"]["summary"]:
        if line.strip() not in shown:
            failures.append(f"match: the page lacks the line {line!r}")
    if "inf" in shown or "nan" in shown:
        failures.append("match: an Elo that is not finite is shown")
    if len(view["match"]["lines"]) != 2:
        failures.append(f"match: {len(view['match']['lines'])} games finished, not 2")
    check_page(driver, view, failures)
    return len(view["match"]["lines"])


def play_dots(driver, base, failures):
    driver.get(base + "?rules=dots&size=2x2")
    # the page names the seats by the rule set's sides; player 2 is set in the form
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "white-label").text == "Player 2"
                                    and game_id(d) is not None)
    first = game_id(driver)
    Select(driver.find_element(By.ID, "white-level")).select_by_value("custom")
    white = driver.find_element(By.ID, "white")
    white.clear()
    white.send_keys("dots_search")
    click(driver, "#start")
    WebDriverWait(driver, WAIT).until(lambda d: game_id(d) not in (None, first))
    view = settled(driver, base)
    if view["players"].get("2") != "dots_search":
        failures.append(f"dots: player 2 is {view['players']}")
    clicks = 0
    while not view["finished"]:
        edge = view["moves"][0]
        click(driver, f'#board path.hit[data-edge="{edge}"]')
        clicks += 1
        view = settled(driver, base)
        check_page(driver, view, failures)
        if not view["finished"] and not driver.find_elements(By.CSS_SELECTOR, "#board .last-mark"):
            failures.append("dots: the last edge is not marked by shape")
    if banner_expected(view, "1") not in driver.find_element(By.ID, "banner").text:
        failures.append(f"dots: banner {driver.find_element(By.ID, 'banner').text!r}, {view['winner']} won")
    contrast(driver, failures, "dots")
    return clicks


CONTRAST = """
function lum(c) {
  const m = c.match(/\\d+(\\.\\d+)?/g).map(Number).slice(0, 3).map((v) => v / 255)
    .map((v) => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
  return 0.2126 * m[0] + 0.7152 * m[1] + 0.0722 * m[2];
}
function ratio(a, b) { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); }
const out = [];
const board = document.querySelector("#board rect.board");
const bg = board ? getComputedStyle(board).fill : "rgb(255, 255, 255)";
const check = (sel, prop, against, what) => document.querySelectorAll(sel).forEach((el) => {
  const s = getComputedStyle(el), c = s[prop];
  if (!c || c === "none") return;
  const under = typeof against === "function" ? against(el) : against;
  out.push([what, ratio(c, under), c, under]);
});
check("#board circle.legal", "fill", bg, "legal-move marker");
check("#board circle.last", "stroke", bg, "last-move ring");
check("#board .hinted", "stroke", bg, "suggested move");
check("#board line.legal", "stroke", "rgb(255, 255, 255)", "open dots edge");
check("#board rect.changed[data-cell]", "fill", (el) => getComputedStyle(document.querySelector(`#board circle.disc[data-cell="${el.dataset.cell}"]`)).fill, "turned-disc mark");
check("button:disabled", "color", (el) => getComputedStyle(el).backgroundColor, "disabled button");
return out;
"""


def contrast(driver, failures, where):
    for what, r, colour, under in driver.execute_script(CONTRAST):
        if r < 3:
            failures.append(f"contrast ({where}): {what} {colour} on {under} is {r:.2f}:1, under 3:1")


def phone(failures, base):
    driver = browser(390, 844)
    try:
        # a phone's viewport, whatever the smallest window headless Chromium makes
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        driver.get(base)
        width = driver.execute_script("return window.innerWidth")
        if width != 390:
            failures.append(f"phone: the viewport is {width} px wide, not 390")
        driver.get(base + "?rules=reversi")
        settled(driver, base)
        start = driver.find_element(By.ID, "start")
        driver.execute_script("arguments[0].scrollIntoView()", start)
        first = game_id(driver)
        start.click()
        WebDriverWait(driver, 20).until(lambda d: game_id(d) not in (None, first))
        settled(driver, base)
        time.sleep(0.8)  # the smooth scroll
        top = driver.execute_script("return document.getElementById('board').getBoundingClientRect().top")
        if not 0 <= top < 400:
            failures.append(f"phone: after Start the board is at {top:.0f} px, not in view")
        if not driver.switch_to.active_element.get_attribute("data-cell"):
            failures.append("phone: the focus is not on the board after Start")
        driver.save_screenshot(os.path.join(SHOTS, "serve-phone.png"))
        phone.played = every_builtin(driver, base, failures)
        step_by_clicks(driver, base, failures)  # moves of several cells, by touch
        # dots 6 x 6: every edge a 44 px target, split at its middle
        view = post(base, "api/games", {"rules": "dots", "size": "6x6", "players": {"1": "human", "2": "human"}})
        driver.get(base + f"?game={view['id']}")
        settled(driver, base)
        driver.execute_script("document.getElementById('board').scrollIntoView()")
        sizes = driver.execute_script(
            "return [...document.querySelectorAll('#board .hit')].map(e => { const r = e.getBoundingClientRect(); "
            "return Math.min(r.width, r.height); })")
        if min(sizes) < 44:
            failures.append(f"phone: a dots edge's target is {min(sizes):.1f} px")
        picked = driver.execute_script("""
            const out = [];
            for (const el of [...document.querySelectorAll('#board line.legal')].slice(0, 30)) {
              const svg = el.ownerSVGElement, m = el.getScreenCTM();
              for (const t of [0.12, 0.5, 0.88]) {
                const p = svg.createSVGPoint();
                p.x = el.x1.baseVal.value + t * (el.x2.baseVal.value - el.x1.baseVal.value);
                p.y = el.y1.baseVal.value + t * (el.y2.baseVal.value - el.y1.baseVal.value);
                const q = p.matrixTransform(m), hit = document.elementFromPoint(q.x, q.y);
                out.push([el.dataset.edge, hit && hit.dataset.edge]);
              }
            }
            return out;""")
        wrong = [p for p in picked if p[0] != p[1]]
        if not picked or wrong:
            failures.append(f"phone: a touch on an edge picks another: {wrong[:3]}")
        if proc_alive.proc.poll() is not None:
            failures.append("the server stopped")
    finally:
        driver.quit()


def proc_alive():
    pass


def every_builtin(driver, base, failures):
    """A whole game of each other built-in board rule set on the phone, by clicking only: cells, and the Pass
    button when it shows (FlipFlop's second piece declined every other time)."""
    played = {}
    for name in ("othello", "othello-strict", "flipflop", "blocks"):
        # FlipFlop on 8 x 8: on 6 x 6 a side often cannot place a first piece early, and the game ends;
        # a seed of its own, so the game is the same whatever ran before on the server
        sides = [s["side"] for s in next(r for r in api(base, "api/rules")["rules"] if r["name"] == name)["sides"]]
        # (seed 5: a FlipFlop of 39 clicks, 10 second pieces declined)
        made = post(base, "api/games", {"rules": name, "size": 8 if name == "flipflop" else 6,
                                        "seed": 5 if name == "flipflop" else 3,
                                        "players": {sides[0]: "human", sides[1]: "greedy"}})
        driver.get(base + f"?game={made['id']}")
        view = settled(driver, base)
        clicks = 0
        while not view["finished"] and clicks < 200:
            bar = driver.find_element(By.ID, "passbar")
            if view["human_to_move"] and view["can_pass"] and not bar.is_displayed():
                failures.append(f"{name}: may pass, but no Pass button")
            # a move where there is one, but FlipFlop's optional second piece declined every other time
            if view["moves"] and not (view.get("piece") == 2 and view["can_pass"] and clicks % 2):
                cell = view["moves"][clicks % len(view["moves"])]
                click(driver, f'#board rect.cell[data-cell="{cell}"]')
            else:
                click(driver, "#pass")
            clicks += 1
            n = len(view["log"])
            view = settled(driver, base, lambda v, n=n: len(v["log"]) > n and (v["finished"] or v["human_to_move"]))
            check_page(driver, view, failures)
        if not view["finished"]:
            failures.append(f"{name}: not over after {clicks} clicks")
        elif banner_expected(view, view["sides"][0]) not in driver.find_element(By.ID, "banner").text:
            failures.append(f"{name}: banner {driver.find_element(By.ID, 'banner').text!r}, {view['winner']} won")
        played[name] = clicks
        if name == "flipflop" and not any(v == "pass" for v in view["log"]):
            failures.append("flipflop: no second piece was declined")
    return played


def main():
    proc, base = start_server()
    proc_alive.proc = proc
    failures = []
    driver = None
    counts = {}
    try:
        driver = browser(1200, 900)
        counts["reversi moves"] = play_reversi(driver, base, failures)
        contrast(driver, failures, "reversi")
        forced_pass(driver, base, failures)
        counts["flips checked"] = flips(driver, base, failures)
        counts["moves valued"] = values(driver, base, failures)
        two_tabs(driver, base, failures)
        counts["keyboard moves"] = keyboard(driver, base, failures)
        step_by_clicks(driver, base, failures)
        sidebar(driver, base, failures)
        counts["dots clicks"] = play_dots(driver, base, failures)
        counts["study steps"] = study(driver, base, play_reversi.record, failures)
        counts["match games"] = watch(driver, base, failures)
        driver.quit()
        driver = None
        phone(failures, base)
        counts["phone games (clicks)"] = phone.played
        if proc.poll() is not None:
            failures.append("the server stopped")
    finally:
        if driver:
            driver.quit()
        os.killpg(proc.pid, signal.SIGTERM)
    for f in failures:
        print("FAIL:", f)
    print("browser test: " + ", ".join(f"{k} {v}" for k, v in counts.items()) +
          f"; {len(failures)} failures; screenshots in {SHOTS}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
