-- A runaway policy: it keeps everything it allocates, forever.
return function()
  local kept = {}
  while true do kept[#kept + 1] = { #kept, tostring(#kept) } end
end
