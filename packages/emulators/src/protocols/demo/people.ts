// Who appears in the demo data: accounts whose passwords the demo hands out, other members, and co-authors
// without an account (the real service lists those with a null username).

export interface DemoPerson {
  username: string;
  name: string;
  email: string;
  affiliation: string;
}

export const DEMO_ACCOUNTS: readonly DemoPerson[] = [
  {
    username: "ada-okafor",
    name: "Ada Okafor",
    email: "ada.okafor@lab.example",
    affiliation: "University of Lagos, Department of Biochemistry",
  },
  {
    username: "mei-chen",
    name: "Mei Chen",
    email: "mei.chen@lab.example",
    affiliation: "Institute of Plant Sciences, Shanghai",
  },
  {
    username: "tomas-garcia",
    name: "Tomás García",
    email: "tomas.garcia@lab.example",
    affiliation: "Centro de Biología Molecular Severo Ochoa",
  },
  {
    username: "priya-natarajan",
    name: "Priya Natarajan",
    email: "priya.natarajan@lab.example",
    affiliation: "National Centre for Biological Sciences, Bengaluru",
  },
  {
    username: "ingrid-johansson",
    name: "Ingrid Johansson",
    email: "ingrid.johansson@lab.example",
    affiliation: "Karolinska Institutet, Department of Microbiology",
  },
  {
    username: "kwame-asante",
    name: "Kwame Asante",
    email: "kwame.asante@lab.example",
    affiliation: "Noguchi Memorial Institute for Medical Research",
  },
];

/** Members who author public protocols; they have accounts, but the demo prints no password for them. */
export const COMMUNITY_MEMBERS: readonly DemoPerson[] = [
  ["Rosalind Hughes", "University of Cambridge"],
  ["Kenji Watanabe", "RIKEN Center for Biosystems Dynamics Research"],
  ["Fatima Haddad", "American University of Beirut"],
  ["Marco Bianchi", "European Molecular Biology Laboratory"],
  ["Sofia Petrova", "Skolkovo Institute of Science and Technology"],
  ["Emma Fischer", "Max Planck Institute for Molecular Genetics"],
  ["Grace Mwangi", "International Livestock Research Institute"],
  ["Camille Laurent", "Institut Pasteur"],
  ["Rahul Mehta", "Indian Institute of Science"],
  ["Clara Jensen", "Aarhus University"],
].map(([name, affiliation]) => personFor(name as string, affiliation as string));

/** Co-authors without an account. */
export const GUEST_AUTHORS: readonly { name: string; affiliation: string }[] = [
  { name: "Liam O'Brien", affiliation: "Trinity College Dublin" },
  { name: "Noah Kim", affiliation: "KAIST" },
  { name: "Henrik Nielsen", affiliation: "University of Copenhagen" },
  { name: "Isabel Ferreira", affiliation: "Instituto Gulbenkian de Ciência" },
  { name: "Samuel Osei", affiliation: "Kwame Nkrumah University of Science and Technology" },
  { name: "Matt Sullivan Lab", affiliation: "The Ohio State University" },
];

// "Rosalind Hughes" -> username "rosalind-hughes", email "rosalind.hughes@lab.example".
function personFor(name: string, affiliation: string): DemoPerson {
  const words = name.toLowerCase().split(" ");
  return { username: words.join("-"), name, email: `${words.join(".")}@lab.example`, affiliation };
}
