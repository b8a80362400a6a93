// Names in words, for labels derived from data ("hiddenColours" -> "Hidden colours").

/** A camelCase or snake_case name as a capitalised phrase: "moveBand" -> "Move band". */
export function words(name) {
  const spaced = String(name).replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}
