--- Match statistics as engine testers know them from cutechess-cli: the
-- Elo difference from a score, its 95 % error margin, the likelihood of
-- superiority, and a sequential probability ratio test (SPRT).
--
-- Model (docs/decisions.md, "Match statistics"): a game scores 1, 1/2 or
-- 0 for A. With W wins, L losses and D draws in N games, the score is
-- s = (W + D/2) / N and the Elo difference is -400 log10(1/s - 1) (the
-- logistic curve). Its margin is half the width of the Elo interval mapped
-- from s +/- 1.96 sigma, sigma being the standard error of the per-game
-- score. LOS = P(A stronger) = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2.
-- The SPRT is the generalized SPRT on the per-game score (normal
-- approximation, trinomial, logistic Elo bounds): LLR = N (s1 - s0)
-- (2 s - s0 - s1) / (2 var), with s0 and s1 the scores expected at elo0
-- and elo1 and var the per-game variance; it accepts H1 when LLR >=
-- log((1 - beta) / alpha) and H0 when LLR <= log(beta / (1 - alpha)).
local elo = {}

-- The 97.5 % quantile of the standard normal distribution.
elo.Z975 = 1.959963984540054

--- erf(x), to about 1e-14 (series below 2.5, continued fraction above).
function elo.erf(x)
  if x ~= x then return x end
  local sign = x < 0 and -1 or 1
  x = math.abs(x)
  if x < 2.5 then
    local term, sum, n = x, x, 0
    repeat
      n = n + 1
      term = -term * x * x / n
      local add = term / (2 * n + 1)
      sum = sum + add
    until math.abs(add) <= 1e-17 * math.abs(sum)
    return sign * 2 / math.sqrt(math.pi) * sum
  end
  if x > 6 then return sign * 1.0 end
  -- erfc(x) = exp(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
  local fraction = x
  for k = 80, 1, -1 do fraction = x + (k / 2) / fraction end
  local erfc = math.exp(-x * x) / math.sqrt(math.pi) / fraction
  return sign * (1 - erfc)
end

--- The Elo difference of a score in (0, 1): -400 log10(1/s - 1); +-inf
-- at 1 and 0.
function elo.from_score(s)
  if s <= 0 then return -math.huge end
  if s >= 1 then return math.huge end
  return -400 * math.log(1 / s - 1, 10)
end

--- The score expected at an Elo difference (the logistic curve).
function elo.to_score(diff)
  return 1 / (1 + 10 ^ (-diff / 400))
end

--- The statistics of W wins, L losses, D draws: a table with n, score,
-- elo, margin (95 %), los (percent), draw_ratio (percent), stdev (of
-- the mean score). Infinite or undefined values are +-math.huge and NaN.
function elo.stats(w, l, d)
  local n = w + l + d
  local out = { n = n, wins = w, losses = l, draws = d }
  if n == 0 then
    out.score, out.elo, out.margin, out.los, out.draw_ratio, out.stdev = 0 / 0, 0 / 0, 0 / 0, 0 / 0, 0 / 0, 0 / 0
    return out
  end
  local s = (w + d / 2) / n
  local var = (w * (1 - s) ^ 2 + l * s ^ 2 + d * (0.5 - s) ^ 2) / n
  local stdev = math.sqrt(var) / math.sqrt(n)
  out.score, out.stdev = s, stdev
  out.elo = elo.from_score(s)
  if s <= 0 or s >= 1 then
    out.margin = 0 / 0
  else
    out.margin = (elo.from_score(s + elo.Z975 * stdev) - elo.from_score(s - elo.Z975 * stdev)) / 2
  end
  if w + l == 0 then
    out.los = 50.0
  else
    out.los = 100 * (0.5 + 0.5 * elo.erf((w - l) / math.sqrt(2 * (w + l))))
  end
  out.draw_ratio = 100 * d / n
  return out
end

--- The SPRT bounds for error rates alpha and beta: lower, upper.
function elo.sprt_bounds(alpha, beta)
  return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
end

--- The SPRT's log-likelihood ratio of W, L, D between H0 (elo0) and H1
-- (elo1), and its decision: "H0", "H1" or nil (go on). settings = { elo0,
-- elo1, alpha, beta }. Zero while the per-game variance is zero.
function elo.sprt(w, l, d, settings)
  local n = w + l + d
  local lower, upper = elo.sprt_bounds(settings.alpha, settings.beta)
  local llr = 0
  if n > 0 then
    local s = (w + d / 2) / n
    local var = (w * (1 - s) ^ 2 + l * s ^ 2 + d * (0.5 - s) ^ 2) / n
    if var > 0 then
      local s0, s1 = elo.to_score(settings.elo0), elo.to_score(settings.elo1)
      llr = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    end
  end
  local decision
  if llr >= upper then decision = "H1" elseif llr <= lower then decision = "H0" end
  return llr, decision, lower, upper
end

--- Parses `elo0=..,elo1=..,alpha=..,beta=..` (alpha and beta default to
-- 0.05): the settings table, or nil and why.
function elo.parse_sprt(text)
  local settings = { alpha = 0.05, beta = 0.05 }
  local known = { elo0 = true, elo1 = true, alpha = true, beta = true }
  for item in (text .. ","):gmatch("([^,]*),") do
    if item:match("%S") then
      local key, value = item:match("^%s*([%w_]+)%s*=%s*(%S+)%s*$")
      local number = value and tonumber(value)
      if not key or not known[key] then
        return nil, ("--sprt: expected elo0=X,elo1=Y[,alpha=A][,beta=B] (got '%s')"):format(item)
      end
      if not number or number ~= number or math.abs(number) == math.huge then
        return nil, ("--sprt: %s must be a number (got '%s')"):format(key, value)
      end
      settings[key] = number
    end
  end
  if not settings.elo0 or not settings.elo1 then return nil, "--sprt needs elo0 and elo1" end
  if settings.elo1 <= settings.elo0 then return nil, "--sprt: elo1 must be greater than elo0" end
  for _, key in ipairs { "alpha", "beta" } do
    if settings[key] <= 0 or settings[key] >= 0.5 then
      return nil, ("--sprt: %s must be between 0 and 0.5 (got %s)"):format(key, settings[key])
    end
  end
  return settings
end

--- The summary's Elo line of the statistics `s` (elo.stats) of player
-- `a` against player `b`, cutechess-cli's "Elo difference: X +/- Y, LOS: Z
-- %, DrawRatio: R %". Where the Elo or its margin is not a finite number
-- (one side won every game; the 95 % interval reaches a score of 0 or 1)
-- the line says so in words, never inf or nan, and still starts "Elo
-- difference:".
-- @tparam table s the statistics
-- @tparam string a player A's name
-- @tparam string b player B's name
-- @treturn string the line
function elo.line(s, a, b)
  if s.n == 0 then return "Elo difference: not yet measurable (no games)" end
  local rest = (", LOS: %s %%, DrawRatio: %s %%"):format(elo.number(s.los), elo.number(s.draw_ratio))
  if s.score <= 0 or s.score >= 1 then
    return ("Elo difference: not yet measurable (%s won every game)%s"):format(s.score >= 1 and a or b, rest)
  end
  if s.margin ~= s.margin or s.margin == math.huge or s.margin == -math.huge then
    return ("Elo difference: %s, margin not yet measurable (too few games)%s"):format(elo.number(s.elo), rest)
  end
  return ("Elo difference: %s +/- %s%s"):format(elo.number(s.elo), elo.number(s.margin), rest)
end

--- A number as the summary prints it: "%.Nf", or inf, -inf, nan.
function elo.number(x, decimals)
  if x ~= x then return "nan" end
  if x == math.huge then return "inf" end
  if x == -math.huge then return "-inf" end
  local text = ("%." .. (decimals or 1) .. "f"):format(x)
  if text:match("^%-0%.?0*$") then text = text:sub(2) end -- never "-0.0"
  return text
end

return elo
