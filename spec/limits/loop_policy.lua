-- A runaway policy: its first move never ends.
return function()
  local n = 0
  while true do n = n + 1 end
end
