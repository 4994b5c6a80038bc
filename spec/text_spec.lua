-- boardscript.text: trimming in linear time, as every parser of typed or
-- read text uses it.
local text = require "boardscript.text"

describe("boardscript.text", function()
  it("trims blanks around, keeps those inside", function()
    assert.equal("a b", text.trim("  \t a b \r\n"))
    assert.equal("", text.trim(" \t\r\n"))
    assert.equal("", text.trim(""))
    assert.equal("x", text.trim("x"))
    assert.equal("a\0 b", text.trim("\na\0 b\t"))
  end)

  it("splits a first word from the rest, both trimmed", function()
    assert.same({ "move", "f5  d6" }, { text.word_and_rest("  move   f5  d6 \r") })
    assert.same({ "quit", "" }, { text.word_and_rest("quit") })
    assert.is_nil(text.word_and_rest("   "))
  end)

  it("trims a line with a megabyte of inner blanks (quadratic patterns took minutes)", function()
    local line = "a" .. (" "):rep(1 << 19) .. ("\r"):rep(1 << 19) .. "b  "
    assert.equal(#line - 2, #text.trim(line))
    local word, rest = text.word_and_rest(line)
    assert.equal("a", word)
    assert.equal("b", rest)
  end)

  it("fills words into lines of a width, a size such as 8 x 8 on one line, paragraphs kept apart", function()
    assert.same({ "one two", "three", "four" }, text.wrap("one two three four", 9))
    assert.same({ "one two three four" }, text.wrap("  one\ttwo\nthree   four \n", 40))
    assert.same({ "a board", "10 x 10" }, text.wrap("a board 10 x 10", 9))
    assert.same({ "a", "unbreakable", "word" }, text.wrap("a unbreakable word", 5))
    assert.same({ "first", "", "second" }, text.wrap("\n\nfirst\n \n\n second\n\n", 20))
    assert.same({}, text.wrap(" \n ", 20))
    local long = ("word "):rep(1 << 16)
    local lines = text.wrap(long, 76)
    assert.equal("word", lines[#lines]:match("%S+$"))
    for _, line in ipairs(lines) do assert.is_true(#line <= 76) end
  end)
end)
