-- The size limits of issue 28 ("Done when"): no Lua file of boardscript's
-- (lua/) over 500 lines, no function over 120 lines (nested functions
-- counted in the one around them, as luac reports each function's lines),
-- and the direction of the dependencies issue 28 turned: the dots notation
-- does not require a view, the registry keeps the names rule set files use.
local lfs = require "lfs"

local root = assert(package.searchpath("boardscript.rules", package.path)):match("^(.*)/boardscript/rules/init%.lua$")

local MAX_FILE, MAX_FUNCTION = 500, 120

local function lua_files()
  local list = {}
  local function scan(dir, rel)
    for entry in lfs.dir(dir) do
      local path, name = dir .. "/" .. entry, rel .. entry
      if entry:sub(1, 1) ~= "." then
        if lfs.attributes(path, "mode") == "directory" then
          scan(path, name .. "/")
        elseif entry:match("%.lua$") then
          list[#list + 1] = { path = path, name = name }
        end
      end
    end
  end
  scan(root, "")
  table.sort(list, function(a, b) return a.name < b.name end)
  return list
end

local function line_count(path)
  local n = 0
  for _ in io.lines(path) do n = n + 1 end
  return n
end

-- Each function's first and last line, as luac lists them.
local function function_spans(path)
  local pipe = assert(io.popen(("luac5.4 -p -l '%s' 2>&1"):format(path:gsub("'", "'\\''"))))
  local spans = {}
  for line in pipe:lines() do
    local first, last = line:match("^function <.-:(%d+),(%d+)>")
    if first then spans[#spans + 1] = { tonumber(first), tonumber(last) } end
  end
  pipe:close()
  return spans
end

describe("the size of boardscript's Lua", function()
  local files = lua_files()

  it("finds the Lua files", function()
    assert.is_true(#files > 100)
  end)

  it("has no file over " .. MAX_FILE .. " lines", function()
    local over = {}
    for _, f in ipairs(files) do
      local n = line_count(f.path)
      if n > MAX_FILE then over[#over + 1] = ("%s: %d lines"):format(f.name, n) end
    end
    assert.same({}, over)
  end)

  it("has no function over " .. MAX_FUNCTION .. " lines", function()
    local over, seen = {}, 0
    for _, f in ipairs(files) do
      for _, span in ipairs(function_spans(f.path)) do
        seen = seen + 1
        local n = span[2] - span[1] + 1
        if n > MAX_FUNCTION then over[#over + 1] = ("%s:%d: %d lines"):format(f.name, span[1], n) end
      end
    end
    assert.is_true(seen > 1000) -- luac listed them
    assert.same({}, over)
  end)
end)

describe("dependencies issue 28 turned", function()
  local function requires(name)
    local path = assert(package.searchpath(name, package.path))
    local found = {}
    for line in io.lines(path) do
      for module in line:gmatch("require%s*%(?%s*[\"']([%w_.]+)[\"']") do found[module] = true end
    end
    return found
  end

  it("the dots notation requires no view (the view requires the notation)", function()
    assert.is_nil(requires("boardscript.notation.dots")["boardscript.view.dots"])
    assert.is_true(requires("boardscript.view.dots")["boardscript.notation.dots"])
  end)

  it("the registry keeps the names rule set files and the guide use", function()
    local rules = require "boardscript.rules"
    for _, name in ipairs { "load", "define", "variant", "validate", "vouch", "core_game", "counted_in_core",
                            "searched_in_core", "parse_option", "resolve_options", "builtin_names", "examples",
                            "on_board", "where", "from_file", "own_tables" } do
      assert.equal("function", type(rules[name]), name)
    end
    for _, name in ipairs { "HOOKS", "FAMILIES", "BUILTIN", "EXAMPLES", "DIRECTION_FIELDS", "TREE_HOOKS",
                            "RESULT_CHECKS" } do
      assert.equal("table", type(rules[name]), name)
    end
    assert.equal(require("boardscript.rules.core_path").vouch, rules.vouch)
    assert.equal(require("boardscript.rules.check").validate, rules.validate)
  end)

  it("plays a choice one way: the game module's", function()
    local rules = require "boardscript.rules"
    local game = require "boardscript.game"
    assert.is_nil(rules.children)
    assert.is_nil(rules.apply)
    local g = game.new("reversi")
    local list = game.choices(g.rules, g.state)
    assert.equal(4, #list)
    assert.truthy(game.apply(g.rules, g.state, list[1]))
    assert.same(g:choices(), game.choices(g.rules, g.state))
  end)
end)
