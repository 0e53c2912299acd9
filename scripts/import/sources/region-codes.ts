/**
 * data/region-codes.tsv: the abbreviations people write for regions whose GeoNames admin-1 codes
 * are numbers (`ON` for Ontario, CA.08; `NSW` for New South Wales, AU.02), by country
 * (docs/api.md#a-place-in-the-text). Columns: country, abbreviation, admin-1 code, name (not read).
 */
import { RowError, textField, type Problems } from "../problems.ts";
import { ADMIN1_CODE, COUNTRY_CODE } from "./geonames.ts";
import { checkedLines } from "./lines.ts";

export interface RegionCode {
  countryCode: string;
  abbreviation: string;
  admin1Code: string;
}

export async function readRegionCodes(path: string, problems: Problems): Promise<RegionCode[]> {
  const rows: RegionCode[] = [];
  const checked = checkedLines(path, problems, (line) => {
    const [country, abbreviation, admin1] = line
      .split("\t")
      .map((f, i) => textField(f, ["country", "abbreviation", "admin-1 code"][i] ?? "name"));
    if (country === undefined || !COUNTRY_CODE.test(country))
      throw new RowError(`country "${country ?? ""}" is not two capital letters`);
    if (abbreviation === undefined || !/^[A-Z]{2,3}$/.test(abbreviation)) {
      throw new RowError(`abbreviation "${abbreviation ?? ""}" is not 2 or 3 capital letters`);
    }
    if (admin1 === undefined || !ADMIN1_CODE.test(admin1))
      throw new RowError(`admin-1 code "${admin1 ?? ""}" is malformed`);
    return { countryCode: country, abbreviation, admin1Code: admin1.toUpperCase() };
  });
  for await (const row of checked) rows.push(row);
  return rows;
}
