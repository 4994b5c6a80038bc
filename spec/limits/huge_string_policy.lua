-- A runaway policy: one huge string.rep (1 GiB, in one allocation).
return function()
  return ("x"):rep(1 << 30)
end
