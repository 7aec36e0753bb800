// The bench techniques demo protocols are made from: title templates, the variants that fill them, and
// the steps of each section, written as a lab would write them. "{x}" stands for the chosen variant.
// Only characters of the PDF standard fonts' encoding (WinAnsi) are used, so PDFs show them as written.
import type { Material } from "../model.js";

export interface TechniqueSection {
  name: string;
  steps: readonly string[];
}

export interface Technique {
  titles: readonly string[];
  variants: readonly string[];
  description: string;
  guidelines: string;
  materials: readonly Material[];
  sections: readonly TechniqueSection[];
}

export const TECHNIQUES: readonly Technique[] = [
  {
    titles: ["RNA extraction from {x} with TRIzol", "Total RNA isolation from {x} using silica spin columns"],
    variants: [
      "plant tissue",
      "Arabidopsis seedlings",
      "mouse liver",
      "zebrafish embryos",
      "cultured HEK293 cells",
      "yeast cultures",
      "human PBMCs",
      "maize leaves",
      "Drosophila heads",
      "tomato fruit pericarp",
    ],
    description:
      "Isolation of high-quality total RNA from {x}, suitable for RT-qPCR, RNA-seq and northern blotting. The protocol combines phenol-guanidinium lysis with an optional on-column DNase treatment and yields RNA with a 260/280 ratio near 2.0.",
    guidelines:
      "Work on ice and use RNase-free tubes, tips and water throughout. Clean benches and pipettes with an RNase decontamination solution before starting. TRIzol contains phenol: handle it in a fume hood with gloves and eye protection.",
    materials: [
      { name: "TRIzol Reagent", vendor: "Thermo Fisher Scientific", sku: "15596026" },
      { name: "Chloroform, molecular biology grade", vendor: "Sigma-Aldrich", sku: "C2432" },
      { name: "Isopropanol", vendor: "Sigma-Aldrich", sku: "I9516" },
      { name: "RNase-free DNase Set", vendor: "Qiagen", sku: "79254" },
      { name: "Nuclease-free water", vendor: "Invitrogen", sku: "AM9937" },
    ],
    sections: [
      {
        name: "Homogenization",
        steps: [
          "Collect 50–100 mg of {x} into a pre-chilled 2 mL tube and snap-freeze in liquid nitrogen.",
          "Grind the frozen material to a fine powder with a pre-cooled pestle, keeping the tube in liquid nitrogen so the sample never thaws.",
          "Add 1 mL of TRIzol Reagent and vortex for 15 s until the lysate is homogeneous. Incubate 5 min at room temperature to dissociate nucleoprotein complexes.",
        ],
      },
      {
        name: "Phase separation",
        steps: [
          "Add 200 µL of chloroform, cap the tube securely and shake vigorously by hand for 15 s.",
          "Incubate 3 min at room temperature, then centrifuge at 12,000 × g for 15 min at 4 °C.",
          "Transfer the upper aqueous phase (about 500 µL) to a fresh tube without disturbing the interphase.",
        ],
      },
      {
        name: "RNA precipitation",
        steps: [
          "Add 500 µL of isopropanol to the aqueous phase, mix by inversion and incubate 10 min at room temperature.",
          "Centrifuge at 12,000 × g for 10 min at 4 °C. The RNA forms a white gel-like pellet at the bottom of the tube.",
        ],
      },
      {
        name: "Wash and resuspension",
        steps: [
          "Discard the supernatant and wash the pellet with 1 mL of 75% ethanol. Vortex briefly and centrifuge at 7,500 × g for 5 min at 4 °C.",
          "Air-dry the pellet for 5–10 min. Do not over-dry, or the RNA becomes hard to dissolve.",
          "Resuspend the RNA in 30 µL of nuclease-free water and incubate 10 min at 55 °C.",
        ],
      },
      {
        name: "Quality control",
        steps: [
          "Measure the concentration and the 260/280 and 260/230 ratios on a NanoDrop spectrophotometer.",
          "Check integrity on a Bioanalyzer RNA Nano chip; proceed with samples with an RIN of 7 or more. Store at -80 °C.",
        ],
      },
    ],
  },
  {
    titles: ["Western blot for {x}", "Quantitative fluorescent western blot of {x}"],
    variants: [
      "phosphorylated ERK",
      "total AKT and phospho-AKT (Ser473)",
      "GAPDH loading control",
      "LC3-II autophagy marker",
      "cleaved caspase-3",
      "beta-catenin",
      "p53",
      "histone H3K27me3",
      "GFP-tagged fusion proteins",
      "HA-tagged proteins",
    ],
    description:
      "Detection of {x} in whole-cell lysates by SDS-PAGE, wet transfer to PVDF and immunodetection. Phosphatase and protease inhibitors are kept in every buffer so that phospho-epitopes survive sample preparation.",
    guidelines:
      "Keep lysates on ice. Block phospho-specific antibodies in BSA, not milk, because casein is a phosphoprotein. Always run a loading control on the same membrane.",
    materials: [
      { name: "RIPA lysis buffer", vendor: "Cell Signaling Technology", sku: "9806" },
      {
        name: "Halt Protease and Phosphatase Inhibitor Cocktail",
        vendor: "Thermo Fisher Scientific",
        sku: "78440",
      },
      { name: "4–20% Mini-PROTEAN TGX gels", vendor: "Bio-Rad", sku: "4561094" },
      { name: "Immobilon-P PVDF membrane", vendor: "Merck Millipore", sku: "IPVH00010" },
      { name: "Bovine serum albumin, fraction V", vendor: "Sigma-Aldrich", sku: "A3059" },
    ],
    sections: [
      {
        name: "Sample preparation",
        steps: [
          "Wash cells twice with ice-cold PBS and lyse in RIPA buffer with protease and phosphatase inhibitors (100 µL per well of a 6-well plate).",
          "Scrape, transfer to a tube and incubate 30 min on ice, vortexing every 10 min. Clear the lysate at 14,000 × g for 15 min at 4 °C.",
          "Quantify protein by BCA assay and mix 20 µg of each sample with 4× Laemmli buffer containing 10% beta-mercaptoethanol. Heat 5 min at 95 °C.",
        ],
      },
      {
        name: "SDS-PAGE",
        steps: [
          "Load samples and a prestained protein ladder on a 4–20% gradient gel.",
          "Run at 80 V until the dye front enters the resolving gel, then at 120 V until it reaches the bottom of the gel.",
        ],
      },
      {
        name: "Transfer",
        steps: [
          "Activate the PVDF membrane in methanol for 30 s and equilibrate in transfer buffer with 20% methanol.",
          "Assemble the sandwich (sponge, filter paper, gel, membrane, filter paper, sponge), removing air bubbles with a roller. Transfer at 100 V for 60 min at 4 °C.",
          "Stain the membrane with Ponceau S for 2 min to check transfer, then destain with TBST.",
        ],
      },
      {
        name: "Immunodetection",
        steps: [
          "Block for 1 h at room temperature in 5% BSA in TBST.",
          "Incubate with the primary antibody against {x} (1:1000 in 5% BSA/TBST) overnight at 4 °C with gentle rocking.",
          "Wash three times for 10 min in TBST, then incubate with HRP-conjugated secondary antibody (1:5000) for 1 h at room temperature.",
          "Wash three times for 10 min in TBST.",
        ],
      },
      {
        name: "Imaging and analysis",
        steps: [
          "Cover the membrane with ECL substrate for 1 min and image on a ChemiDoc system, taking several exposures.",
          "Quantify band intensities in Image Lab or Fiji and normalise each band to the loading control of the same lane.",
        ],
      },
    ],
  },
  {
    titles: ["RT-qPCR quantification of {x} expression", "SYBR Green qPCR assay for {x}"],
    variants: [
      "IL6",
      "GAPDH and ACTB reference genes",
      "interferon-stimulated genes",
      "FLOWERING LOCUS T",
      "Sox2 and Oct4",
      "SARS-CoV-2 N gene",
      "16S rRNA gene copies",
      "heat-shock protein genes",
      "circadian clock genes",
      "drought-responsive genes",
    ],
    description:
      "Two-step RT-qPCR for {x}: random-primed cDNA synthesis followed by SYBR Green detection in 10 µL reactions, with relative quantification by the 2^-ddCt method against two reference genes.",
    guidelines:
      "Set up reactions in a PCR hood away from amplified products. Include no-template and no-RT controls for every primer pair, and run three technical replicates per sample.",
    materials: [
      { name: "SuperScript IV Reverse Transcriptase", vendor: "Thermo Fisher Scientific", sku: "18090010" },
      { name: "PowerUp SYBR Green Master Mix", vendor: "Applied Biosystems", sku: "A25742" },
      { name: "Random hexamers (50 µM)", vendor: "Invitrogen", sku: "N8080127" },
      { name: "MicroAmp Optical 384-well plates", vendor: "Applied Biosystems", sku: "4309849" },
    ],
    sections: [
      {
        name: "cDNA synthesis",
        steps: [
          "Treat 1 µg of total RNA with DNase I for 15 min at room temperature and inactivate with EDTA at 65 °C for 10 min.",
          "Add random hexamers and dNTPs, heat 5 min at 65 °C and chill on ice for at least 1 min.",
          "Add RT buffer, DTT, RNase inhibitor and SuperScript IV. Incubate 10 min at 23 °C, 10 min at 55 °C and 10 min at 80 °C.",
          "Dilute the cDNA 1:10 in nuclease-free water.",
        ],
      },
      {
        name: "Reaction setup",
        steps: [
          "Prepare a master mix per primer pair: 5 µL SYBR Green master mix, 0.5 µL of each primer (10 µM) and 2 µL water per reaction.",
          "Dispense 8 µL of master mix per well and add 2 µL of diluted cDNA. Seal the plate and spin at 1,000 × g for 1 min.",
        ],
      },
      {
        name: "Cycling",
        steps: [
          "Run 2 min at 50 °C and 2 min at 95 °C, then 40 cycles of 15 s at 95 °C and 1 min at 60 °C.",
          "Add a melt curve from 60 °C to 95 °C to confirm a single specific product for {x}.",
        ],
      },
      {
        name: "Analysis",
        steps: [
          "Export Ct values and discard technical replicates that differ by more than 0.5 cycles from the other two.",
          "Calculate relative expression of {x} by the 2^-ddCt method, normalising to the geometric mean of the reference genes.",
        ],
      },
    ],
  },
  {
    titles: ["Genomic DNA extraction from {x} (CTAB method)", "High-molecular-weight DNA isolation from {x}"],
    variants: [
      "plant leaves",
      "fungal mycelium",
      "bacterial cultures",
      "insect tissue",
      "soil samples",
      "marine sponges",
      "brown seaweed",
      "pine needles",
      "bird blood",
      "coral fragments",
    ],
    description:
      "Extraction of genomic DNA from {x} with a CTAB buffer that removes polysaccharides and polyphenols. The DNA is suitable for PCR, restriction digestion and long-read sequencing.",
    guidelines:
      "Use wide-bore tips after lysis to avoid shearing long DNA. Chloroform and beta-mercaptoethanol must be handled in a fume hood.",
    materials: [
      { name: "CTAB (hexadecyltrimethylammonium bromide)", vendor: "Sigma-Aldrich", sku: "H6269" },
      { name: "Polyvinylpyrrolidone 40", vendor: "Sigma-Aldrich", sku: "PVP40" },
      { name: "RNase A (10 mg/mL)", vendor: "Thermo Fisher Scientific", sku: "EN0531" },
      { name: "Chloroform:isoamyl alcohol 24:1", vendor: "Sigma-Aldrich", sku: "C0549" },
    ],
    sections: [
      {
        name: "Lysis",
        steps: [
          "Pre-warm CTAB buffer (2% CTAB, 1.4 M NaCl, 20 mM EDTA, 100 mM Tris-HCl pH 8.0, 1% PVP) to 65 °C and add 0.2% beta-mercaptoethanol just before use.",
          "Grind 100 mg of {x} in liquid nitrogen and transfer the powder to 700 µL of warm CTAB buffer.",
          "Incubate 60 min at 65 °C, inverting the tube every 15 min.",
        ],
      },
      {
        name: "Purification",
        steps: [
          "Add 700 µL of chloroform:isoamyl alcohol (24:1), mix by inversion for 5 min and centrifuge at 13,000 × g for 10 min.",
          "Transfer the aqueous phase to a new tube and repeat the chloroform extraction once.",
          "Add 2 µL of RNase A and incubate 30 min at 37 °C.",
        ],
      },
      {
        name: "Precipitation",
        steps: [
          "Add 0.7 volumes of cold isopropanol and mix gently until DNA strands become visible. Incubate 30 min at -20 °C.",
          "Centrifuge at 13,000 × g for 15 min at 4 °C and wash the pellet twice with 70% ethanol.",
          "Dry the pellet briefly and dissolve in 50 µL of TE buffer overnight at 4 °C.",
        ],
      },
      {
        name: "Quality control",
        steps: [
          "Measure DNA concentration with a Qubit dsDNA BR assay and purity on a NanoDrop.",
          "Run 100 ng on a 0.8% agarose gel to confirm a high-molecular-weight band without smearing.",
        ],
      },
    ],
  },
  {
    titles: ["Transformation of {x} with plasmid DNA", "Preparation of competent {x} cells"],
    variants: [
      "E. coli DH5alpha",
      "E. coli BL21(DE3)",
      "E. coli TOP10",
      "E. coli Stbl3",
      "E. coli XL1-Blue",
      "Agrobacterium tumefaciens GV3101",
      "Bacillus subtilis 168",
      "Pseudomonas putida KT2440",
      "Lactococcus lactis NZ9000",
      "Vibrio natriegens",
    ],
    description:
      "Preparation of competent {x} and their transformation with plasmid DNA, with selection on antibiotic plates. Typical efficiencies are 10^6 to 10^8 transformants per µg of supercoiled plasmid.",
    guidelines:
      "Keep competent cells on ice at all times and never vortex them. Include a pUC19 positive control and a no-DNA negative control with every batch.",
    materials: [
      { name: "LB broth, Miller", vendor: "Sigma-Aldrich", sku: "L3522" },
      { name: "SOC outgrowth medium", vendor: "New England Biolabs", sku: "B9020S" },
      { name: "Calcium chloride dihydrate", vendor: "Sigma-Aldrich", sku: "C3306" },
      { name: "pUC19 control plasmid", vendor: "New England Biolabs", sku: "N3041S" },
    ],
    sections: [
      {
        name: "Competent cells",
        steps: [
          "Inoculate 100 mL of LB with 1 mL of an overnight culture of {x} and grow at 37 °C with shaking to an OD600 of 0.4.",
          "Chill the culture on ice for 20 min and pellet the cells at 4,000 × g for 10 min at 4 °C.",
          "Resuspend gently in 30 mL of ice-cold 0.1 M CaCl2, incubate 30 min on ice and pellet again.",
          "Resuspend in 4 mL of ice-cold 0.1 M CaCl2 with 15% glycerol, aliquot 50 µL per tube and freeze at -80 °C.",
        ],
      },
      {
        name: "Transformation",
        steps: [
          "Thaw one aliquot of competent cells on ice and add 1–5 µL of plasmid DNA (10–100 ng). Flick the tube gently to mix.",
          "Incubate 30 min on ice, heat-shock for exactly 45 s at 42 °C and return to ice for 2 min.",
          "Add 950 µL of SOC medium and recover for 1 h at 37 °C with shaking at 225 rpm.",
        ],
      },
      {
        name: "Selection",
        steps: [
          "Plate 100 µL and a 1:10 dilution on pre-warmed LB agar with the appropriate antibiotic.",
          "Incubate the plates upside down overnight at 37 °C and count colonies to calculate transformation efficiency.",
        ],
      },
    ],
  },
  {
    titles: [
      "Immunofluorescence staining of {x} in cultured cells",
      "Confocal imaging of {x} after immunostaining",
    ],
    variants: [
      "alpha-tubulin",
      "phalloidin-labelled actin",
      "gamma-H2AX foci",
      "Ki-67",
      "E-cadherin",
      "mitochondria (TOM20)",
      "primary cilia (ARL13B)",
      "Lamin B1",
      "stress granules (G3BP1)",
      "focal adhesions (paxillin)",
    ],
    description:
      "Fixation, permeabilisation and immunostaining of {x} in adherent cells grown on glass coverslips, followed by mounting and confocal imaging.",
    guidelines:
      "Paraformaldehyde is toxic: prepare and use it in a fume hood. Protect fluorescent antibodies from light and never let coverslips dry during staining.",
    materials: [
      { name: "16% paraformaldehyde, methanol-free", vendor: "Thermo Fisher Scientific", sku: "28908" },
      { name: "Triton X-100", vendor: "Sigma-Aldrich", sku: "T8787" },
      { name: "Normal goat serum", vendor: "Abcam", sku: "ab7481" },
      { name: "ProLong Gold Antifade Mountant with DAPI", vendor: "Invitrogen", sku: "P36931" },
    ],
    sections: [
      {
        name: "Fixation",
        steps: [
          "Seed cells on sterile 12 mm glass coverslips in a 24-well plate and grow to 60–70% confluence.",
          "Rinse once with PBS and fix with 4% paraformaldehyde in PBS for 15 min at room temperature.",
          "Wash three times with PBS for 5 min each.",
        ],
      },
      {
        name: "Staining",
        steps: [
          "Permeabilise with 0.2% Triton X-100 in PBS for 10 min.",
          "Block with 5% normal goat serum in PBS for 1 h at room temperature.",
          "Incubate with the primary antibody against {x} diluted in blocking buffer for 2 h at room temperature or overnight at 4 °C.",
          "Wash three times with PBS and incubate with Alexa Fluor 488-conjugated secondary antibody (1:500) for 1 h in the dark.",
        ],
      },
      {
        name: "Mounting and imaging",
        steps: [
          "Wash three times with PBS, dip the coverslip in water and mount cell side down in ProLong Gold with DAPI.",
          "Cure overnight in the dark and image on a confocal microscope with a 63× oil objective, keeping laser power and gain constant between conditions.",
        ],
      },
    ],
  },
  {
    titles: ["Flow cytometry staining of {x}", "Intracellular cytokine staining of {x}"],
    variants: [
      "mouse splenocytes",
      "human T cells",
      "regulatory T cells",
      "bone marrow progenitors",
      "tumour-infiltrating lymphocytes",
      "NK cells",
      "B cell subsets",
      "monocytes and macrophages",
      "dendritic cells",
      "neutrophils",
    ],
    description:
      "Multicolour surface and intracellular staining of {x} for analysis on a spectral or conventional flow cytometer, including viability dye, Fc block and fluorescence-minus-one controls.",
    guidelines:
      "Titrate every antibody before use. Keep cells at 4 °C and protected from light. Prepare single-stained compensation controls with beads or cells.",
    materials: [
      { name: "FACS buffer (PBS, 2% FBS, 1 mM EDTA)", vendor: "prepared in-house", sku: "-" },
      { name: "Zombie Aqua Fixable Viability Kit", vendor: "BioLegend", sku: "423101" },
      { name: "TruStain FcX (anti-mouse CD16/32)", vendor: "BioLegend", sku: "101320" },
      { name: "Foxp3 / Transcription Factor Staining Buffer Set", vendor: "Invitrogen", sku: "00-5523-00" },
    ],
    sections: [
      {
        name: "Cell preparation",
        steps: [
          "Prepare a single-cell suspension of {x}, filter through a 70 µm strainer and count.",
          "Transfer 1 × 10^6 cells per well to a V-bottom 96-well plate and wash with PBS.",
        ],
      },
      {
        name: "Surface staining",
        steps: [
          "Stain with the viability dye (1:1000 in PBS) for 15 min at room temperature in the dark.",
          "Block Fc receptors with TruStain FcX for 10 min on ice.",
          "Add the surface antibody cocktail in FACS buffer and incubate 30 min at 4 °C. Wash twice with FACS buffer.",
        ],
      },
      {
        name: "Intracellular staining",
        steps: [
          "Fix and permeabilise with the Foxp3 staining buffer set for 45 min at 4 °C.",
          "Stain intracellular targets in permeabilisation buffer for 30 min at room temperature, then wash twice.",
        ],
      },
      {
        name: "Acquisition",
        steps: [
          "Resuspend in 200 µL FACS buffer and acquire at least 100,000 live events per sample.",
          "Gate on singlets and live cells before analysing populations of interest in FlowJo, using FMO controls to set gates.",
        ],
      },
    ],
  },
  {
    titles: [
      "CRISPR-Cas9 knockout of {x} in HEK293T cells",
      "Cas9 ribonucleoprotein electroporation targeting {x}",
    ],
    variants: [
      "TP53",
      "PTEN",
      "CDKN2A",
      "B2M",
      "the AAVS1 safe harbour",
      "TET2",
      "KRAS",
      "EMX1",
      "HPRT1",
      "NF1",
    ],
    description:
      "Knockout of {x} by electroporation of Cas9 ribonucleoprotein complexes with two synthetic guide RNAs, followed by single-cell cloning and genotyping by amplicon sequencing.",
    guidelines:
      "Design guides against an early constitutive exon and check off-targets with CRISPOR. Keep an unedited control population in parallel.",
    materials: [
      { name: "Alt-R S.p. Cas9 Nuclease V3", vendor: "Integrated DNA Technologies", sku: "1081058" },
      { name: "Alt-R CRISPR-Cas9 sgRNA, 2 nmol", vendor: "Integrated DNA Technologies", sku: "custom" },
      { name: "SF Cell Line 4D-Nucleofector X Kit S", vendor: "Lonza", sku: "V4XC-2032" },
      { name: "QuickExtract DNA Extraction Solution", vendor: "Lucigen", sku: "QE09050" },
    ],
    sections: [
      {
        name: "RNP assembly",
        steps: [
          "Resuspend each sgRNA targeting {x} to 100 µM in TE buffer.",
          "Mix 120 pmol of sgRNA with 60 pmol of Cas9 protein and incubate 15 min at room temperature to form RNP complexes.",
        ],
      },
      {
        name: "Electroporation",
        steps: [
          "Harvest 2 × 10^5 cells per reaction, wash with PBS and resuspend in 20 µL of SF nucleofection solution.",
          "Add the RNP, transfer to a Nucleocuvette strip and electroporate with program CM-130.",
          "Add 80 µL of pre-warmed medium immediately and transfer the cells to a 24-well plate.",
        ],
      },
      {
        name: "Clonal isolation",
        steps: [
          "After 72 h, harvest part of the pool for genotyping and sort single cells into 96-well plates.",
          "Expand clones for 2–3 weeks, changing medium every 4 days.",
        ],
      },
      {
        name: "Genotyping",
        steps: [
          "Extract genomic DNA with QuickExtract and amplify 300 bp around each cut site.",
          "Sequence the amplicons and call indels with CRISPResso2; keep clones with frameshift alleles on every copy of {x}.",
          "Confirm loss of protein by western blot.",
        ],
      },
    ],
  },
  {
    titles: ["Sandwich ELISA for {x}", "Measuring {x} by ELISA in cell culture supernatants"],
    variants: [
      "human IL-6",
      "mouse TNF-alpha",
      "IFN-gamma",
      "total IgG",
      "salivary cortisol",
      "plasma insulin",
      "VEGF-A",
      "C-reactive protein",
      "IL-1beta",
      "serum amyloid A",
    ],
    description:
      "Quantification of {x} by sandwich ELISA in 96-well plates with a seven-point standard curve fitted by four-parameter logistic regression.",
    guidelines:
      "Run standards and samples in duplicate. Do not let wells dry between steps, and use a multichannel pipette to keep timing consistent across the plate.",
    materials: [
      {
        name: "Nunc MaxiSorp flat-bottom 96-well plates",
        vendor: "Thermo Fisher Scientific",
        sku: "44-2404-21",
      },
      { name: "DuoSet ELISA development kit", vendor: "R&D Systems", sku: "DY206" },
      { name: "TMB substrate solution", vendor: "BioLegend", sku: "421101" },
      { name: "Stop solution (2 N H2SO4)", vendor: "R&D Systems", sku: "DY994" },
    ],
    sections: [
      {
        name: "Plate coating",
        steps: [
          "Dilute the capture antibody for {x} in PBS and coat 100 µL per well overnight at room temperature.",
          "Wash three times with 300 µL wash buffer and block with 300 µL reagent diluent for 1 h.",
        ],
      },
      {
        name: "Samples and standards",
        steps: [
          "Prepare a seven-point two-fold dilution series of the standard and dilute samples in reagent diluent.",
          "Add 100 µL of standards and samples per well, seal and incubate 2 h at room temperature.",
        ],
      },
      {
        name: "Detection",
        steps: [
          "Wash three times, add 100 µL of detection antibody and incubate 2 h.",
          "Wash three times, add streptavidin-HRP and incubate 20 min in the dark.",
          "Wash, add 100 µL of TMB substrate and incubate 20 min in the dark; add 50 µL of stop solution.",
        ],
      },
      {
        name: "Reading",
        steps: [
          "Read absorbance at 450 nm with wavelength correction at 570 nm within 30 min.",
          "Fit the standard curve with a four-parameter logistic model and interpolate the concentration of {x} in each sample.",
        ],
      },
    ],
  },
  {
    titles: [
      "His-tag purification of {x} by Ni-NTA chromatography",
      "Expression and purification of {x} from E. coli",
    ],
    variants: [
      "recombinant GFP",
      "MBP fusion proteins",
      "T7 RNA polymerase",
      "SpCas9 nuclease",
      "SUMO protease",
      "Taq polymerase",
      "ubiquitin",
      "T4 lysozyme mutants",
      "nanobodies",
      "PETase",
    ],
    description:
      "Expression of N-terminally His6-tagged {x} in E. coli BL21(DE3) and purification by immobilised metal affinity chromatography, followed by size-exclusion polishing.",
    guidelines:
      "Keep lysates and columns at 4 °C. Add imidazole to the lysis buffer to reduce non-specific binding, and check every fraction by SDS-PAGE before pooling.",
    materials: [
      { name: "Ni-NTA Agarose", vendor: "Qiagen", sku: "30210" },
      { name: "IPTG", vendor: "GoldBio", sku: "I2481C" },
      { name: "cOmplete EDTA-free protease inhibitor tablets", vendor: "Roche", sku: "11873580001" },
      { name: "HiLoad 16/600 Superdex 200 pg", vendor: "Cytiva", sku: "28989335" },
    ],
    sections: [
      {
        name: "Expression",
        steps: [
          "Grow BL21(DE3) carrying the {x} plasmid in 1 L of LB with kanamycin at 37 °C to an OD600 of 0.6.",
          "Induce with 0.5 mM IPTG and express overnight at 18 °C with shaking.",
          "Harvest cells at 5,000 × g for 15 min and freeze the pellet at -80 °C or proceed directly.",
        ],
      },
      {
        name: "Lysis",
        steps: [
          "Resuspend the pellet in 40 mL lysis buffer (50 mM Tris pH 8.0, 300 mM NaCl, 10 mM imidazole) with protease inhibitors.",
          "Sonicate on ice (10 s on, 20 s off, 5 min total at 40% amplitude) and clear at 30,000 × g for 30 min at 4 °C.",
        ],
      },
      {
        name: "Affinity purification",
        steps: [
          "Incubate the cleared lysate with 2 mL of equilibrated Ni-NTA resin for 1 h at 4 °C with rotation.",
          "Wash the resin with 50 column volumes of buffer with 25 mM imidazole.",
          "Elute {x} with buffer containing 250 mM imidazole in 1 mL fractions.",
        ],
      },
      {
        name: "Polishing",
        steps: [
          "Pool fractions containing the protein and run size-exclusion chromatography in 20 mM HEPES pH 7.5, 150 mM NaCl.",
          "Concentrate, measure A280, flash-freeze aliquots in liquid nitrogen and store at -80 °C.",
        ],
      },
    ],
  },
  {
    titles: ["Passaging and maintenance of {x}", "Cryopreservation and thawing of {x}"],
    variants: [
      "HeLa cells",
      "HEK293T cells",
      "human iPSCs",
      "primary mouse fibroblasts",
      "MCF-7 cells",
      "Jurkat cells",
      "CHO-K1 cells",
      "RAW 264.7 macrophages",
      "SH-SY5Y neuroblastoma cells",
      "Vero cells",
    ],
    description:
      "Routine culture of {x}: passaging at sub-confluence, freezing stocks in DMSO-containing medium, and thawing with minimal loss of viability.",
    guidelines:
      "Work in a class II biosafety cabinet. Test cultures for mycoplasma monthly and keep passage numbers low; authenticate cell lines by STR profiling.",
    materials: [
      { name: "DMEM, high glucose, GlutaMAX", vendor: "Gibco", sku: "10566016" },
      { name: "Fetal bovine serum, qualified", vendor: "Gibco", sku: "10270106" },
      { name: "TrypLE Express", vendor: "Gibco", sku: "12604013" },
      { name: "DMSO, cell culture grade", vendor: "Sigma-Aldrich", sku: "D2650" },
    ],
    sections: [
      {
        name: "Passaging",
        steps: [
          "Inspect {x} under the microscope; passage when cultures reach 80–90% confluence.",
          "Aspirate the medium, rinse with PBS and add 1 mL of TrypLE per T25 flask. Incubate 3–5 min at 37 °C.",
          "Neutralise with 4 mL of complete medium, count with trypan blue and seed at the recommended density.",
        ],
      },
      {
        name: "Freezing",
        steps: [
          "Pellet 2 × 10^6 cells at 300 × g for 5 min and resuspend in 1 mL of freezing medium (90% FBS, 10% DMSO).",
          "Transfer to a cryovial, place in an isopropanol freezing container at -80 °C overnight and move to liquid nitrogen the next day.",
        ],
      },
      {
        name: "Thawing",
        steps: [
          "Thaw a vial quickly in a 37 °C water bath until a small ice crystal remains.",
          "Dilute dropwise into 9 mL of warm medium, pellet at 300 × g for 5 min and resuspend in fresh medium.",
          "Change the medium after 24 h and check attachment and morphology.",
        ],
      },
    ],
  },
  {
    titles: ["Illumina library preparation for {x}", "Oxford Nanopore sequencing of {x}"],
    variants: [
      "bacterial genomes",
      "16S rRNA amplicons",
      "low-input RNA-seq",
      "ChIP-seq samples",
      "ATAC-seq samples",
      "whole plasmids",
      "metagenomic DNA",
      "single-cell cDNA",
      "viral genomes",
      "CRISPR screen libraries",
    ],
    description:
      "Preparation of sequencing libraries for {x}: fragmentation, end repair, adapter ligation and indexing PCR, with bead clean-ups and library QC before pooling.",
    guidelines:
      "Quantify libraries by qPCR or Qubit and check size on a TapeStation before pooling. Keep pre- and post-PCR work in separate areas.",
    materials: [
      { name: "NEBNext Ultra II DNA Library Prep Kit", vendor: "New England Biolabs", sku: "E7645S" },
      { name: "AMPure XP beads", vendor: "Beckman Coulter", sku: "A63881" },
      { name: "Qubit dsDNA HS Assay Kit", vendor: "Invitrogen", sku: "Q32851" },
      { name: "Ligation Sequencing Kit V14", vendor: "Oxford Nanopore Technologies", sku: "SQK-LSK114" },
    ],
    sections: [
      {
        name: "Fragmentation and end repair",
        steps: [
          "Dilute 100 ng of input DNA from {x} in 50 µL of 0.1× TE.",
          "Fragment to 300–400 bp with the enzymatic fragmentation mix for 15 min at 37 °C, then end-repair and A-tail for 30 min at 65 °C.",
        ],
      },
      {
        name: "Adapter ligation",
        steps: [
          "Add the adapter, ligation master mix and enhancer; incubate 15 min at 20 °C.",
          "Clean up with 0.8× AMPure XP beads and elute in 17 µL of 0.1× TE.",
        ],
      },
      {
        name: "Indexing PCR",
        steps: [
          "Amplify with unique dual index primers for 5–8 cycles depending on input.",
          "Clean up with 0.9× AMPure XP beads and elute in 30 µL of 0.1× TE.",
        ],
      },
      {
        name: "Library QC",
        steps: [
          "Quantify with the Qubit dsDNA HS assay and check the size distribution on a TapeStation D1000 tape.",
          "Pool libraries equimolarly and sequence with 2 × 150 bp reads to the planned depth.",
        ],
      },
    ],
  },
  {
    titles: ["Agarose gel electrophoresis of {x}", "Gel extraction and purification of {x}"],
    variants: [
      "PCR products",
      "restriction digests",
      "genomic DNA",
      "plasmid DNA",
      "colony PCR reactions",
      "Gibson assembly products",
      "cDNA amplicons",
      "amplicon libraries",
      "ligation reactions",
      "long-range PCR products",
    ],
    description:
      "Separation of {x} by size on agarose gels stained with SYBR Safe, with optional excision and silica-column purification of the band of interest.",
    guidelines:
      "Use blue light rather than UV to visualise bands you intend to clone, to avoid DNA damage. Choose the agarose percentage for the fragment size: 0.8% for large fragments, 2% for fragments under 500 bp.",
    materials: [
      { name: "UltraPure Agarose", vendor: "Invitrogen", sku: "16500500" },
      { name: "SYBR Safe DNA Gel Stain", vendor: "Invitrogen", sku: "S33102" },
      { name: "1 kb Plus DNA Ladder", vendor: "Invitrogen", sku: "10787018" },
      { name: "QIAquick Gel Extraction Kit", vendor: "Qiagen", sku: "28704" },
    ],
    sections: [
      {
        name: "Casting the gel",
        steps: [
          "Dissolve 1 g of agarose in 100 mL of 1× TAE by heating in a microwave, swirling every 30 s.",
          "Cool to about 55 °C, add 10 µL of SYBR Safe, pour into the casting tray with a comb and let set for 30 min.",
        ],
      },
      {
        name: "Running",
        steps: [
          "Mix 5 µL of {x} with 1 µL of 6× loading dye and load next to 5 µL of ladder.",
          "Run at 5 V/cm until the dye front has migrated two thirds of the gel.",
          "Image on a blue-light transilluminator and record band sizes against the ladder.",
        ],
      },
      {
        name: "Gel extraction",
        steps: [
          "Excise the band with a clean scalpel, keeping the gel slice as small as possible, and weigh it.",
          "Dissolve the slice in 3 volumes of buffer QG at 50 °C for 10 min, bind to a QIAquick column and wash with buffer PE.",
          "Elute in 30 µL of water and measure the concentration.",
        ],
      },
    ],
  },
  {
    titles: ["Paraffin embedding and sectioning of {x}", "H&E staining of {x} sections"],
    variants: [
      "mouse brain",
      "human skin biopsies",
      "zebrafish larvae",
      "intestinal organoids",
      "mouse kidney",
      "tumour xenografts",
      "chicken embryos",
      "Arabidopsis roots",
      "mouse lung",
      "rat tendon",
    ],
    description:
      "Fixation, processing, paraffin embedding and microtome sectioning of {x}, with haematoxylin and eosin staining for morphology.",
    guidelines:
      "Fix tissue promptly: delayed fixation causes artefacts. Xylene and formalin are hazardous; use them under extraction.",
    materials: [
      { name: "10% neutral buffered formalin", vendor: "Sigma-Aldrich", sku: "HT501128" },
      { name: "Paraplast Plus embedding medium", vendor: "Leica", sku: "39602004" },
      { name: "Mayer's haematoxylin", vendor: "Sigma-Aldrich", sku: "MHS16" },
      { name: "Eosin Y solution, alcoholic", vendor: "Sigma-Aldrich", sku: "HT110116" },
    ],
    sections: [
      {
        name: "Fixation and processing",
        steps: [
          "Fix {x} in 10% neutral buffered formalin for 24 h at room temperature (tissue no thicker than 5 mm).",
          "Dehydrate through graded ethanol (70%, 80%, 95%, 100%, 100%), 1 h each, then clear in xylene twice for 1 h.",
          "Infiltrate with molten paraffin at 60 °C, three changes of 1 h.",
        ],
      },
      {
        name: "Embedding and sectioning",
        steps: [
          "Embed in fresh paraffin in a mould, orienting the tissue, and cool on a cold plate.",
          "Cut 5 µm sections on a rotary microtome, float them on a 42 °C water bath and pick them up on charged slides.",
          "Dry the slides overnight at 37 °C.",
        ],
      },
      {
        name: "H&E staining",
        steps: [
          "Deparaffinise in xylene and rehydrate through graded ethanol to water.",
          "Stain in haematoxylin for 5 min, rinse, differentiate briefly in acid alcohol and blue in Scott's tap water.",
          "Counterstain with eosin for 1 min, dehydrate, clear and mount with a xylene-based mountant.",
        ],
      },
    ],
  },
  {
    titles: [
      "Growth curve measurement of {x} in a plate reader",
      "Minimum inhibitory concentration assay for {x}",
    ],
    variants: [
      "Escherichia coli",
      "Staphylococcus aureus",
      "Pseudomonas aeruginosa",
      "Mycobacterium smegmatis",
      "Salmonella Typhimurium",
      "Candida albicans",
      "Bacillus subtilis",
      "Klebsiella pneumoniae",
      "Acinetobacter baumannii",
      "Enterococcus faecalis",
    ],
    description:
      "Measurement of growth of {x} in 96-well plates by OD600 over 24 h, and determination of the minimum inhibitory concentration of antibiotics by broth microdilution following CLSI guidance.",
    guidelines:
      "Handle pathogens at the appropriate biosafety level. Use breathable seals or lids to limit evaporation, and include sterile medium wells as blanks.",
    materials: [
      { name: "Mueller-Hinton broth, cation-adjusted", vendor: "BD", sku: "212322" },
      { name: "Clear flat-bottom 96-well plates", vendor: "Corning", sku: "3370" },
      { name: "Breathe-Easy sealing membrane", vendor: "Sigma-Aldrich", sku: "Z380059" },
    ],
    sections: [
      {
        name: "Inoculum",
        steps: [
          "Streak {x} from a glycerol stock and grow overnight; pick 3–5 colonies into broth.",
          "Adjust the suspension to a 0.5 McFarland standard and dilute 1:100 in fresh medium.",
        ],
      },
      {
        name: "Plate setup",
        steps: [
          "Prepare two-fold serial dilutions of the antibiotic across the plate in 50 µL volumes.",
          "Add 50 µL of diluted inoculum to each well; include growth controls without antibiotic and sterility controls.",
        ],
      },
      {
        name: "Measurement",
        steps: [
          "Incubate in a plate reader at 37 °C with orbital shaking and read OD600 every 15 min for 24 h.",
          "Record the MIC as the lowest concentration with no visible growth after 18–20 h.",
          "Fit growth curves to estimate lag time, maximum growth rate and carrying capacity of {x}.",
        ],
      },
    ],
  },
  {
    titles: ["Bradford assay for protein quantification in {x}", "BCA protein assay of {x}"],
    variants: [
      "cell lysates",
      "tissue homogenates",
      "purified protein fractions",
      "serum samples",
      "plant extracts",
      "bacterial lysates",
      "mitochondrial fractions",
      "nuclear extracts",
      "culture supernatants",
      "exosome preparations",
    ],
    description:
      "Colorimetric determination of total protein concentration in {x} against a BSA standard curve, in a 96-well microplate format.",
    guidelines:
      "Prepare standards in the same buffer as the samples: detergents and reducing agents interfere with both assays. Run everything in triplicate.",
    materials: [
      { name: "Pierce BCA Protein Assay Kit", vendor: "Thermo Fisher Scientific", sku: "23225" },
      { name: "Bio-Rad Protein Assay Dye Reagent", vendor: "Bio-Rad", sku: "5000006" },
      { name: "BSA standard ampules, 2 mg/mL", vendor: "Thermo Fisher Scientific", sku: "23209" },
    ],
    sections: [
      {
        name: "Standards",
        steps: [
          "Prepare BSA standards from 0 to 2,000 µg/mL by serial dilution in the sample buffer.",
          "Pipette 10 µL of each standard in triplicate into a 96-well plate.",
        ],
      },
      {
        name: "Samples",
        steps: [
          "Dilute {x} 1:5 and 1:10 in sample buffer so that readings fall within the standard range.",
          "Add 10 µL of each dilution in triplicate.",
          "Add 200 µL of working reagent to every well and mix on a plate shaker for 30 s.",
        ],
      },
      {
        name: "Reading",
        steps: [
          "Incubate 30 min at 37 °C (BCA) or 5 min at room temperature (Bradford).",
          "Read absorbance at 562 nm (BCA) or 595 nm (Bradford) and fit a quadratic standard curve to calculate concentrations.",
        ],
      },
    ],
  },
];

/** Steps that fit almost any bench protocol; added to reach a protocol's step count. */
export const GENERAL_STEPS: readonly string[] = [
  "Label all tubes and plates with sample name, date and your initials before starting.",
  "Pre-cool the centrifuge to 4 °C.",
  "Thaw reagents on ice, vortex briefly and spin down before opening.",
  "Prepare fresh working solutions on the day of the experiment.",
  "Briefly vortex and spin down the tubes to collect liquid at the bottom.",
  "Record lot numbers of all kits and antibodies in the lab notebook.",
  "Pause point: samples can be stored at -20 °C for up to one week at this stage.",
  "Check the pH of the buffer and adjust with NaOH or HCl if necessary.",
  "Equilibrate all reagents to room temperature for 30 min before use.",
  "Clean the work area with 70% ethanol.",
  "Calibrate the pipettes you will use, or check their last calibration date.",
  "Keep a sample of each intermediate fraction for later analysis by SDS-PAGE or gel.",
  "Incubate on ice for 10 min.",
  "Centrifuge at 10,000 × g for 1 min and discard the flow-through.",
  "Transfer the supernatant to a fresh 1.5 mL tube without disturbing the pellet.",
  "Mix by pipetting up and down ten times, avoiding bubbles.",
  "Turn on the water bath or heat block so that it reaches temperature before you need it.",
  "Prepare an ice bucket and a rack for 1.5 mL tubes.",
  "Set a timer for each incubation; timing matters for reproducibility.",
  "Measure the volume of the sample and note it in the worksheet.",
  "Dispose of hazardous waste in the designated containers.",
  "Photograph the plate or gel for the records.",
  "Repeat the previous wash once more.",
  "Discard tips after each sample to avoid cross-contamination.",
  "Store the remaining reagents according to the manufacturer's instructions.",
  "Enter all measurements in the shared spreadsheet the same day.",
  "Check that the centrifuge is balanced before starting the run.",
  "Warm the medium to 37 °C in a bead bath.",
  "Inspect samples for precipitates; warm to 37 °C to redissolve if needed.",
  "Spin the plate briefly at 500 × g to remove bubbles before reading.",
];

/** Detailed notes appended to some steps so that they run past a thousand characters. */
export const LONG_NOTES: readonly string[] = [
  "Note on timing: the incubation times given here were optimised for the sample amounts in this protocol. If you scale the reaction up or down, keep the ratio of sample to reagent constant rather than the absolute volumes, and extend incubation times by about 50% when working with more than twice the material. Shorter incubations reduce yield noticeably, while much longer ones tend to increase background without improving the signal. When processing many samples in parallel, stagger the start of each by 30 s so that every sample receives the same incubation time, and keep a written timetable next to the bench.",
  "Troubleshooting: if the yield is consistently low, first check the age and storage of the reagents, since several components lose activity after repeated freeze-thaw cycles. Next, confirm that the starting material was processed quickly after collection; degradation before lysis is the most common cause of poor results. Incomplete homogenisation is the third usual suspect: inspect the lysate for visible particles and extend the disruption step if any remain. Finally, verify instrument settings such as centrifuge speed in × g rather than rpm, because rotors of different radius give very different forces at the same speed.",
  "Safety: this step uses reagents that are harmful if inhaled or absorbed through the skin. Work in a certified fume hood with the sash lowered, wear nitrile gloves, a buttoned lab coat and safety glasses, and change gloves immediately after any splash. Collect liquid waste in a labelled, closed container kept in secondary containment, and never pour it down the sink. Keep a spill kit within reach and make sure you know where the nearest eyewash station and safety shower are before you begin. Report any exposure to your supervisor and consult the safety data sheet for first-aid measures.",
  "Expected results: in our hands this step gives reproducible results across operators when the starting material is of good quality. Typical values from twelve independent preparations are shown in the lab's shared data folder; deviations of more than 20% from the mean usually point to a handling problem rather than biological variation. Keep a record of every run, including failed ones, with the lot numbers of critical reagents, the instrument used and the room temperature, as these details make it much easier to trace the cause when results drift over time.",
  "Critical step: do not let the sample warm up or dry out at this point. Prepare everything you need for the following step before starting, including labelled tubes, pre-cooled buffers and a ready centrifuge, so that there is no waiting time. If you are processing more than eight samples, split them into batches and complete this step for one batch before starting the next. Small delays here have a disproportionate effect on the final result, and they are the most frequent reason for differences between replicates reported by new users of this protocol.",
  "Alternative: if the recommended kit is not available, an equivalent home-made buffer can be used with similar results. Prepare it fresh from stock solutions, filter it through a 0.22 µm membrane and keep it on ice. Validate the substitute once by running it side by side with the commercial reagent on the same samples, and record the comparison in your notebook. Note that some downstream applications, in particular sequencing and mass spectrometry, are sensitive to trace contaminants, so use the highest purity grade of every component you can obtain.",
];
