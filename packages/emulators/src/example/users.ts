// The example service's directory: a fixed, deterministic list so test expectations never drift.
// Several names share substrings ("Chen", "Ana"/"Anna"/"Hannah") so searches span several pages.

export interface ExampleUser {
  id: string;
  name: string;
  email: string;
  team?: string;
}

const TEAMS = ["Genomics", "Protein Engineering", "Cell Biology", "Bioinformatics", "Microbiology"] as const;

const NAMES = [
  "Ada Okafor",
  "Alan Chen",
  "Ana Souza",
  "Anna Kowalski",
  "Anand Iyer",
  "Hannah Schmidt",
  "Mei Chen",
  "Wei Chen",
  "Lucas Chen",
  "Joanna Nowak",
  "Diana Rossi",
  "Rosalind Hughes",
  "Barbara Lindqvist",
  "Carlos Mendes",
  "Priya Natarajan",
  "Tomás García",
  "Kenji Watanabe",
  "Fatima Haddad",
  "Oluwaseun Adeyemi",
  "Ingrid Johansson",
  "Marco Bianchi",
  "Sofia Petrova",
  "Liam O'Brien",
  "Emma Fischer",
  "Noah Kim",
  "Yuki Tanaka",
  "Amara Nwosu",
  "Elena Popescu",
  "David Levi",
  "Sarah Cohen",
  "Mohammed Rahman",
  "Grace Mwangi",
  "Julia Novak",
  "Pavel Horák",
  "Chiara Romano",
  "Felix Wagner",
  "Nadia Benali",
  "Rahul Mehta",
  "Sunita Rao",
  "Isabel Ferreira",
  "Henrik Nielsen",
  "Camille Laurent",
  "Mateo Álvarez",
  "Aisha Bello",
  "Jonas Berg",
  "Leila Karimi",
  "Victor Dubois",
  "Zara Ahmed",
  "Samuel Osei",
  "Olivia Brennan",
  "Thomas Müller",
  "Lena Hoffmann",
  "Xin Zhao",
  "Jia Li",
  "Ravi Shankar",
  "Marta Kowalczyk",
  "Erik Sørensen",
  "Beatriz Santos",
  "Kwame Asante",
  "Clara Jensen",
] as const;

// "Tomás García" -> "tomas.garcia", "Liam O'Brien" -> "liam.obrien", "Erik Sørensen" -> "erik.sorensen".
function emailFor(name: string): string {
  const ascii = name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/ø/gi, "o")
    .toLowerCase()
    .replace(/[^a-z ]/g, "");
  return `${ascii.split(" ").join(".")}@lab.example`;
}

/** About two thirds have a team: every third user has none, so the "no team key" case is common. */
export const SEED_USERS: readonly ExampleUser[] = NAMES.map((name, i) => {
  const user: ExampleUser = { id: `usr_${String(i + 1).padStart(4, "0")}`, name, email: emailFor(name) };
  if (i % 3 !== 2) user.team = TEAMS[i % TEAMS.length];
  return user;
});
