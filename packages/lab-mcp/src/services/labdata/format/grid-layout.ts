// The grid of a box or plate: its rows and columns from its capacity, grown to every position seen. Shared
// by the markdown grid and the box map view.

export const ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The usual layouts by capacity (rows x columns); a size not listed is laid out from the positions seen. */
const LAYOUTS: Record<number, [number, number]> = {
  6: [2, 3],
  12: [3, 4],
  24: [4, 6],
  48: [6, 8],
  81: [9, 9],
  96: [8, 12],
  100: [10, 10],
  384: [16, 24],
};

/** Rows and columns of a grid of `capacity` positions holding at least `positions` ("A1", "H12"). */
export function gridSize(capacity: number | undefined, positions: Iterable<string>): [number, number] {
  let [rows, columns] = LAYOUTS[capacity ?? 0] ?? [0, 0];
  for (const position of positions) {
    const row = ROW_LETTERS.indexOf(position.charAt(0)) + 1;
    const column = Number(position.slice(1));
    if (row > rows) rows = row;
    if (Number.isInteger(column) && column > columns) columns = column;
  }
  return [rows, columns];
}
