--- Multi-ProbCut parameters of a learned evaluation (docs/guide.md,
-- "Selective search"): the depths and their shallow depths, the text kept
-- in an evaluation file's meta (key mpc) and the depths made from the
-- fitted ones. The C searcher (src/core/search_impl.h, mpc_probe)
-- predicts a search `d` plies deep from one `shallow(d)` plies deep as
-- slope x value + offset with an error of deviation sigma, per depth and
-- game phase, and cuts a node when the shallow search says, with that
-- margin, that the deep one would fail high or low (Buro's Multi-ProbCut,
-- as Logistello, Ntest and Edax use it). `boardscript train` fits them
-- (boardscript.train.mpc). Depths past the deepest fitted one take the
-- parameters of the deepest fitted depth of the same parity, sigma scaled
-- as measured on game positions (docs/decisions.md, "Multi-ProbCut past
-- the fitted depths"): the error of a prediction falls as its shallow
-- search deepens and grows slowly with the plies it skips.
local mpc = {}

--- The deepest depth with parameters (the searcher's limit).
mpc.MAX_DEPTH = 60
--- The shallowest depth with a cut.
mpc.MIN_DEPTH = 3
--- An extended depth's sigma is the fitted one's times SHALLOW_DECAY for
-- every 2 plies its shallow search is deeper, times (its gap / the fitted
-- gap) ^ GAP_EXPONENT (the gap: deep less shallow plies). Fitted (log
-- least squares) on 80 positions of 16 games of 8 x 8 reversi searched
-- full-width to depths 4-14 with the shipped evaluation: sigma was 171
-- hundredths of a disc from 6 to 12 plies, 172 from 6 to 14, 123 from 8
-- to 14, 112 from 10 to 14. The decay stops at a shallow depth of
-- DECAY_UNTIL, the deepest measured: past it sigma only grows with the gap.
mpc.SHALLOW_DECAY = 0.862
mpc.GAP_EXPONENT = 0.164
mpc.DECAY_UNTIL = 12

--- The shallow depth of depth d: about half, with the parity of d (an odd
-- depth ends on the mover's reply, which the evaluation sees differently).
function mpc.shallow(d)
  return ((d // 2) & ~1) | (d & 1)
end

local function round(x) return math.floor(x + 0.5) end

--- Fills the depths past the deepest fitted one (up to MAX_DEPTH) from the
-- deepest fitted depth of the same parity; returns params.
function mpc.extend(params)
  local deepest = { }
  for d = mpc.MIN_DEPTH, mpc.MAX_DEPTH do
    if params[d] then deepest[d % 2] = d end
  end
  for d = mpc.MIN_DEPTH, mpc.MAX_DEPTH do
    local from = deepest[d % 2]
    if not params[d] and from and from < d then
      local base = params[from]
      local s = mpc.shallow(d)
      local decay = math.max(0, math.min(s, mpc.DECAY_UNTIL) - base.shallow)
      local scale = mpc.SHALLOW_DECAY ^ (decay / 2) * ((d - s) / (from - base.shallow)) ^ mpc.GAP_EXPONENT
      local entry = { shallow = s, slope = {}, offset = {}, sigma = {} }
      for p = 1, #base.slope do
        entry.slope[p] = base.slope[p]
        entry.offset[p] = base.offset[p]
        entry.sigma[p] = math.max(1, round(base.sigma[p] * scale))
      end
      params[d] = entry
    end
  end
  return params
end

local function same(a, b)
  if a == nil or b == nil then return a == b end
  if a.shallow ~= b.shallow then return false end
  for _, key in ipairs { "slope", "offset", "sigma" } do
    if #a[key] ~= #b[key] then return false end
    for p = 1, #a[key] do
      if a[key][p] ~= b[key][p] then return false end
    end
  end
  return true
end

-- The shallowest depth up to which params give the rest by mpc.extend.
local function fitted_depth(params)
  for top = mpc.MIN_DEPTH, mpc.MAX_DEPTH do
    local part = {}
    for d = mpc.MIN_DEPTH, top do part[d] = params[d] end
    mpc.extend(part)
    local all = true
    for d = mpc.MIN_DEPTH, mpc.MAX_DEPTH do
      if not same(part[d], params[d]) then
        all = false
        break
      end
    end
    if all then return top end
  end
  return mpc.MAX_DEPTH
end

--- The parameters' text for a file's meta: "D/S slopes offsets sigmas"
-- per depth, "|" between depths, up to the deepest that mpc.extend does
-- not make again on loading from the ones before it.
function mpc.text(params)
  local parts = {}
  for d = mpc.MIN_DEPTH, fitted_depth(params) do
    local e = params[d]
    if e then
      local slopes = {}
      for p, v in ipairs(e.slope) do slopes[p] = ("%.3f"):format(v) end
      parts[#parts + 1] = ("%d/%d %s %s %s"):format(d, e.shallow, table.concat(slopes, ","),
        table.concat(e.offset, ","), table.concat(e.sigma, ","))
    end
  end
  return table.concat(parts, "|")
end

--- Parses mpc.text's text for an evaluation of `phases` phases: params
-- (extended) and the deepest depth given, or nil and what is wrong.
function mpc.parse(text, phases)
  local params, fitted = {}, 0
  for part in (text .. "|"):gmatch("([^|]*)|") do
    local d, s, slopes, offsets, sigmas = part:match("^(%d+)/(%d+) (%S+) (%S+) (%S+)$")
    d, s = tonumber(d), tonumber(s)
    if not d or d < mpc.MIN_DEPTH or d > mpc.MAX_DEPTH or s >= d or params[d] then
      return nil, ("bad depth entry '%s'"):format(part:sub(1, 40))
    end
    local entry = { shallow = s, slope = {}, offset = {}, sigma = {} }
    for _, item in ipairs { { "slope", slopes }, { "offset", offsets }, { "sigma", sigmas } } do
      local key, list = item[1], item[2]
      for word in list:gmatch("[^,]+") do entry[key][#entry[key] + 1] = tonumber(word) end
      if #entry[key] ~= phases then
        return nil, ("depth %d: %d %s values for %d phases"):format(d, #entry[key], key, phases)
      end
    end
    params[d] = entry
    fitted = math.max(fitted, d)
  end
  return mpc.extend(params), fitted
end

--- Sets evaluator `ev`'s parameters from the meta text `text`: nil, or
-- what is wrong.
function mpc.load(ev, text)
  local params, why = mpc.parse(text, ev:info().phases)
  if not params then return why end
  local ok, err = pcall(ev.set_mpc, ev, params)
  if not ok then return tostring(err):gsub("^bad argument #2 to '[%w_]+' %((.*)%)$", "%1") end
  return nil
end

return mpc
