/**
 * Given and family names written in Latin letters, by language, for the classes that need realistic people (typos,
 * near names, dates, aliases, people on no list) and for the distractors. Written for this bench from common names of
 * each language; no list's entries. Each pool is split in two by position (splits.ts), so dev and held never share a name.
 */
const words = (s: string): string[] => s.trim().split(/\s+/).map((w) => w.replaceAll('_', ' '));

export interface LatinLanguage {
  language: string;
  given: string[];
  family: string[];
}

export const LATIN_LANGUAGES: LatinLanguage[] = [
  {
    language: 'english',
    given: words('James Robert Michael William David Richard Thomas Charles Christopher Daniel Matthew Anthony Steven Paul Andrew Joshua Kenneth Kevin Brian George Timothy Ronald Edward Jason Jeffrey Ryan Jacob Gary Nicholas Eric Jonathan Stephen Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Nancy Margaret Sandra Ashley Kimberly Emily Donna Michelle'),
    family: words('Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Moore Jackson Thompson White Harris Clark Lewis Robinson Walker Young Allen King Wright Hill Green Adams Baker Nelson Carter Mitchell Roberts Turner Phillips Campbell Parker Evans Edwards Collins Stewart Morris Rogers Reed Cook Morgan Bell Murphy Bailey Cooper Richardson Howard Ward Peterson Gray Watson Brooks Kelly Sanders Price Bennett Wood Barnes Henderson Coleman Jenkins Perry Powell Patterson Hughes Butler Simmons Foster Bryant Russell Griffin Hayes Myers Hamilton Graham Sullivan Wallace Fisher Ellis Harrison Gibson Marshall Murray Freeman Wells Webb Simpson Stevens Tucker Porter Hunter Crawford Boyd Mason Kennedy Warren Dixon Burns Gordon Holmes Palmer'),
  },
  {
    language: 'spanish',
    given: words('José Juan Carlos Luis Miguel Javier Antonio Francisco Manuel Pedro Alejandro Fernando Jorge Ricardo Eduardo Roberto Andrés Diego Raúl Sergio Pablo Rafael Alberto Enrique Ramón Guillermo Emilio Ignacio Gustavo María Carmen Isabel Lucía Elena Pilar Teresa Marta Laura Paula Sofía Valentina Camila Gabriela Adriana Daniela Mariana'),
    family: words('García Rodríguez González Fernández López Martínez Sánchez Pérez Gómez Jiménez Ruiz Hernández Díaz Moreno Muñoz Álvarez Romero Alonso Gutiérrez Navarro Torres Domínguez Vázquez Ramos Ramírez Serrano Blanco Molina Suárez Ortega Delgado Ortiz Rubio Marín Núñez Iglesias Medina Garrido Cortés Lozano Guerrero Cano Prieto Calvo Gallego Vidal Márquez Herrera Peña Cabrera Campos Vega Fuentes Carrasco Reyes Caballero Nieto Aguilar Pascual Montero Lorenzo Hidalgo Ibáñez Ferrer Durán Benítez Vargas Arias Carmona Crespo Pastor Soto Velasco Moya Soler Parra Esteban Bravo Gallardo Rojas Quintero Valencia Zamora Ochoa Salazar Villanueva'),
  },
  {
    language: 'german',
    given: words('Hans Klaus Jürgen Wolfgang Dieter Uwe Günter Horst Helmut Manfred Stefan Andreas Frank Bernd Matthias Markus Ralf Jörg Holger Lukas Felix Jonas Tobias Florian Ursula Monika Petra Sabine Claudia Renate Gabriele Brigitte Birgit Heike Anja Katrin Susanne Stefanie'),
    family: words('Müller Schmidt Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hartmann Lange Schmitt Werner Krause Lehmann Schulze Köhler Herrmann König Walter Huber Kaiser Fuchs Scholz Möller Weiß Jung Hahn Schubert Vogel Friedrich Keller Günther Winkler Roth Beck Lorenz Baumann Franke Albrecht Schuster Ludwig Böhm Winter Kraus Schumacher Krämer Vogt Jäger Sommer Seidel Heinrich Brandt Haas Schreiber Ziegler Kuhn Pohl Engel Horn Busch Voigt Sauer Pfeiffer'),
  },
  {
    language: 'french',
    given: words('Jean Pierre Michel André Philippe Alain Jacques Patrick Christophe Nicolas Laurent Olivier Julien Sébastien Guillaume Mathieu Antoine François Nathalie Sylvie Catherine Françoise Valérie Christine Sandrine Céline Chloé Manon Élodie Aurélie Juliette Margaux'),
    family: words('Dubois Durand Leroy Moreau Lefebvre Bertrand Roux Vincent Fournier Morel Girard Lefèvre Mercier Dupont Lambert Bonnet Legrand Garnier Faure Rousseau Blanc Guérin Roussel Perrin Morin Gauthier Dumont Fontaine Chevalier Masson Boyer Lemaire Duval Joly Roche Marchand Dufour Blanchard Barbier Brunet Leroux Renard Arnaud Rolland Caron Aubert Giraud Leclerc Bourgeois Renaud Lemoine Picard Gaillard Lacroix Fabre Dupuis Hubert Guillot Rivière Lecomte Ménard Fleury Deschamps Carpentier Maillard Vasseur Jacquet Collet Prévost Poirier Charpentier Royer Huet Dupuy Perrot Guyot'),
  },
  {
    language: 'italian',
    given: words('Giuseppe Giovanni Francesco Luigi Salvatore Mario Angelo Vincenzo Pietro Domenico Bruno Paolo Giorgio Sergio Stefano Massimo Roberta Alessandra Giulia Francesca Chiara Federica Silvia Elisa Valentina Martina Lorenzo Matteo Leonardo Riccardo'),
    family: words('Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti Mancini Costa Giordano Rizzo Lombardi Moretti Barbieri Fontana Santoro Mariani Rinaldi Caruso Ferrara Galli Leone Longo Gentile Martinelli Vitale Serra Coppola Fabbri Villa Cattaneo Parisi Bellini Benedetti Guerra Pellegrini Palumbo Sanna Farina Monti Grasso Testa Marchetti'),
  },
  {
    language: 'portuguese',
    given: words('João António Manuel Joaquim Rui Nuno Tiago Rodrigo Gonçalo Afonso Duarte Vasco Henrique Luana Beatriz Inês Leonor Mafalda Raquel Fernanda Thiago Gustavo Leandro Rafaela Larissa Juliana'),
    family: words('Silva Santos Ferreira Pereira Oliveira Costa Rodrigues Martins Jesus Sousa Fernandes Gonçalves Gomes Lopes Marques Alves Almeida Ribeiro Pinto Carvalho Teixeira Moreira Correia Mendes Nunes Soares Vieira Monteiro Cardoso Rocha Neves Coelho Cunha Pires Antunes Baptista Barbosa Tavares Azevedo Magalhães Quaresma'),
  },
  {
    language: 'polish',
    given: words('Piotr Krzysztof Andrzej Tomasz Paweł Marcin Michał Grzegorz Jerzy Tadeusz Adam Łukasz Zbigniew Ryszard Dariusz Henryk Mariusz Kazimierz Wojciech Agnieszka Małgorzata Joanna Katarzyna Barbara Ewa Krystyna Magdalena Elżbieta Dorota Zofia'),
    family: words('Nowak Kowalski Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski Zieliński Szymański Woźniak Dąbrowski Kozłowski Jankowski Mazur Wojciechowski Kwiatkowski Krawczyk Kaczmarek Piotrowski Grabowski Zając Pawłowski Michalski Król Wieczorek Jabłoński Wróbel Nowakowski Majewski Olszewski Stępień Malinowski Jaworski Adamczyk Dudek Nowicki Pawlak Górski Witkowski Walczak'),
  },
  {
    language: 'turkish',
    given: words('Mehmet Mustafa Ahmet Hüseyin Hasan İbrahim İsmail Osman Yusuf Murat Ömer Ramazan Halil Süleyman Abdullah Mahmut Recep Salih Kemal Emre Burak Fatma Ayşe Emine Hatice Zeynep Elif Meryem Şerife Sultan Hülya Gül'),
    family: words('Yılmaz Kaya Demir Şahin Çelik Yıldız Yıldırım Öztürk Aydın Özdemir Arslan Doğan Kılıç Aslan Çetin Kara Koç Kurt Özkan Şimşek Polat Özer Korkmaz Çakır Erdoğan Yavuz Aktaş Güneş Bulut Keskin Tekin Ünal Avcı Bozkurt Kaplan Karaca Uysal Sarı Turan'),
  },
  {
    language: 'persian',
    given: words('Reza Mohsen Hamid Mehdi Majid Saeed Behrouz Dariush Farhad Kourosh Babak Arash Siamak Parviz Shahram Kamran Jalal Morteza Abbas Gholam Nasrin Shirin Parisa Maryam Leila Fereshteh Azadeh Roya Mahnaz Soheila'),
    family: words('Hosseini Ahmadi Mohammadi Rezaei Moradi Karimi Jafari Rahimi Hashemi Ghasemi Mousavi Sadeghi Heidari Nazari Kazemi Rostami Akbari Ebrahimi Sharifi Yazdani Tehrani Esfahani Shirazi Tabrizi Rafsanjani Khorasani Navabi Bagheri Soltani Amini Farahani Ansari Zarei Hamidi Salehi Asadi'),
  },
  {
    language: 'indian',
    given: words('Rajesh Suresh Ramesh Mahesh Anil Sunil Vijay Sanjay Rahul Amit Rohit Vikram Arjun Karan Deepak Manoj Ashok Pradeep Naveen Priya Anjali Sunita Kavita Pooja Neha Lakshmi Meena Rekha Divya Shreya'),
    family: words('Sharma Verma Gupta Singh Kumar Patel Shah Mehta Joshi Reddy Rao Nair Iyer Menon Pillai Chatterjee Banerjee Mukherjee Das Bose Ghosh Sen Kapoor Malhotra Khanna Chopra Agarwal Bhatia Saxena Srivastava Mishra Tiwari Pandey Dubey Yadav Chauhan Thakur Naidu Krishnan Subramanian'),
  },
  {
    language: 'nigerian',
    given: words('Chinedu Emeka Oluwaseun Babatunde Adebayo Olumide Chukwuma Ifeanyi Obinna Nnamdi Tunde Segun Femi Kelechi Uche Ngozi Chiamaka Funmilayo Yetunde Adaeze Folake Bukola Amaka Nkechi Aisha Hauwa Zainab Musa Abubakar Usman'),
    family: words('Okafor Okonkwo Adeyemi Ogunleye Eze Nwosu Obi Okeke Nwachukwu Adebayo Oladipo Balogun Ogunbanjo Olaniyan Akinola Chukwu Onyekachi Uzoma Ibekwe Okoro Nnadi Ekwueme Adeleke Afolabi Ajayi Bello Danjuma Garba Lawal Yakubu Abdullahi Ibrahim Sule'),
  },
  {
    language: 'vietnamese',
    given: words('Minh Anh Tuan Hung Dung Long Nam Quang Duc Thanh Hoang Phuong Linh Huong Lan Mai Thu Trang Ngoc Hanh'),
    family: words('Nguyen Tran Le Pham Hoang Huynh Phan Vu Vo Dang Bui Do Ho Ngo Duong Ly Truong Dinh Lam Trinh'),
  },
  {
    language: 'dutch_nordic',
    given: words('Jan Pieter Hendrik Willem Johannes Cornelis Gerrit Sander Ruud Joost Lars Anders Erik Nils Johan Mikael Henrik Sven Astrid Ingrid Sigrid Annika Freya Sanne Femke Lotte'),
    family: words('Jansen Bakker Visser Smit Meijer Mulder Bos Vos Peters Hendriks Dekker Brouwer Dijkstra Vermeulen Kuipers Andersson Johansson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson Gustafsson Lindqvist Bergström Lundgren Hansen Pedersen Nielsen Kristiansen Haugen Berg Dahl'),
  },
];

/** Surnames sharing a long prefix but not the same name (different families), for near_names; written for this bench. */
export const PREFIX_SURNAME_GROUPS: string[][] = [
  ['Castillo', 'Castro', 'Castellanos'],
  ['Zuckermann', 'Zuckerberg'],
  ['Rosenberg', 'Rosenthal', 'Rosenblum'],
  ['Goldberg', 'Goldstein', 'Goldman'],
  ['Weinberg', 'Weinstein'],
  ['Petrovsky', 'Petrenko'],
  ['Kovalenko', 'Kovalchuk'],
  ['Mendoza', 'Mendes'],
  ['Martinelli', 'Martinez'],
  ['Santana', 'Santiago'],
  ['Morales', 'Moreno'],
  ['Hernandez', 'Herrera'],
  ['Gonzaga', 'Gonzalez'],
  ['Vasconcelos', 'Vasquez'],
  ['Shevchenko', 'Shevchuk'],
  ['Bondarenko', 'Bondarchuk'],
  ['Sokolovsky', 'Sokolov'],
  ['Novakovic', 'Novak'],
  ['Hoffmeister', 'Hoffmann'],
  ['Schneiderman', 'Schneider'],
  ['Bergmann', 'Bergstrom'],
  ['Lindqvist', 'Lindberg'],
  ['Nakamura', 'Nakagawa', 'Nakajima'],
  ['Yamamoto', 'Yamaguchi'],
  ['Fitzgerald', 'Fitzpatrick'],
  ['Mcdonald', 'Mcdowell'],
  ['Blackwood', 'Blackburn'],
  ['Richardson', 'Richards'],
  ['Harrington', 'Harrison'],
  ['Vandenberg', 'Vanderbilt'],
  ['Abramovich', 'Abramson'],
  ['Grigoryan', 'Grigorenko'],
  ['Christensen', 'Christopoulos'],
  ['Bernardi', 'Bernstein'],
  ['Valentino', 'Valenzuela'],
  ['Montgomery', 'Montero'],
  ['Karamanlis', 'Karagiannis'],
  ['Ferrante', 'Ferraro'],
  ['Oliveira', 'Olivares'],
  ['Stanford', 'Stanley'],
];
